import Foundation
import Testing

@testable import ReceiptLedger

/// The ledger's own SQLite readers (``SQLitePreparedConnection``, ``SQLiteReaders``): values read as SQLiteNIO read
/// them, statements kept prepared within their bound and bound afresh each run, failures typed.
@Suite("SQLite readers")
struct SQLitePreparedConnectionTests {
    /// A file database with table `t` of every storage class, written through the ledger's SQLite writer.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let backend = try await SQLiteBackend.open(path: path, readers: 2)
        do {
            try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: "CREATE TABLE t (id INTEGER, name TEXT, data BLOB, real REAL)", binds: []))
                _ = try await session.run(
                    SQLStatement(
                        sql: "INSERT INTO t VALUES (1, 'ä€𝄞', x'00ff10', 1.5), (2, '', x'', NULL), (-9223372036854775808, NULL, NULL, NULL)",
                        binds: []))
            }
            try await body(path)
        } catch {
            await backend.shutdown()
            throw error
        }
        await backend.shutdown()
    }

    @Test func valuesReadAsTheWriterStoredThem() async throws {
        try await Self.withDatabase { path in
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64)
            defer { connection.close() }
            let rows = try connection.run(SQLStatement(sql: "SELECT id, name, data, real FROM t ORDER BY id DESC", binds: []))
            let expected: [[SQLValue]] = [
                [.integer(2), .text(""), .blob([]), .null],
                [.integer(1), .text("ä€𝄞"), .blob([0x00, 0xff, 0x10]), .text("1.5")],
                [.integer(.min), .null, .null, .null],
            ]
            #expect(rows == expected)
        }
    }

    @Test func aKeptStatementIsBoundAfreshEachRun() async throws {
        try await Self.withDatabase { path in
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64)
            defer { connection.close() }
            let sql = "SELECT name FROM t WHERE id = ?1"
            let kept = connection.preparedStatements
            #expect(try connection.run(SQLStatement(sql: sql, binds: [.integer(3)])) == [])
            #expect(try connection.run(SQLStatement(sql: sql, binds: [.integer(2)])) == [[.text("")]])
            #expect(try connection.run(SQLStatement(sql: sql, binds: [.integer(1)])) == [[.text("ä€𝄞")]])
            #expect(connection.preparedStatements == kept + 1, "one text, prepared once")
            // Binds are cleared after each run: left unbound, the parameter is NULL, not the last run's 1.
            #expect(try connection.run(SQLStatement(sql: sql, binds: [])) == [])
        }
    }

    @Test func keptStatementsStayWithinTheirBound() async throws {
        try await Self.withDatabase { path in
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64)
            defer { connection.close() }
            for value in 0..<(64 * 2 + 5) {
                let rows = try connection.run(SQLStatement(sql: "SELECT \(value)", binds: []))
                #expect(rows == [[.integer(Int64(value))]])
                #expect(connection.preparedStatements <= 64)
            }
        }
    }

    @Test func failuresAreTyped() async throws {
        try await Self.withDatabase { path in
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64)
            #expect(throws: LedgerError.self) { try connection.run(SQLStatement(sql: "SELEC 1", binds: [])) }
            #expect(performing: { try connection.run(SQLStatement(sql: "SELEC 1", binds: [])) }, throws: { error in
                (error as? LedgerError)?.code == .statementFailed
            })
            // Readers only read.
            #expect(performing: { try connection.run(SQLStatement(sql: "DELETE FROM t", binds: [])) }, throws: { error in
                (error as? LedgerError)?.code == .statementFailed
            })
            #expect(performing: { try connection.run(SQLStatement(sql: "SELECT 1", binds: [.texts(["a"])])) }, throws: { error in
                (error as? LedgerError)?.code == .statementFailed
            })
            connection.close()
            #expect(performing: { try connection.run(SQLStatement(sql: "SELECT 1", binds: [])) }, throws: { error in
                (error as? LedgerError)?.code == .unavailable
            })
        }
        #expect(performing: { try SQLitePreparedConnection(path: "/nonexistent-rk/ledger.sqlite", readOnly: true, maximumStatements: 64) }, throws: { error in
            (error as? LedgerError)?.code == .unavailable
        })
    }

    @Test func manyConcurrentReadsEachFindAReader() async throws {
        try await Self.withDatabase { path in
            let readers = try await SQLiteReaders.open(path: path, count: 2)
            let results = try await withThrowingTaskGroup(of: [[SQLValue]].self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await readers.run(SQLStatement(sql: "SELECT ?1 + id FROM t WHERE id = 1", binds: [.integer(Int64(index))]))
                    }
                }
                return try await group.reduce(into: [[[SQLValue]]]()) { $0.append($1) }
            }
            let answered: Set<SQLValue?> = Set(results.map { $0.first?.first })
            let expected: Set<SQLValue?> = Set((1...200).map { SQLValue.integer(Int64($0)) })
            #expect(answered == expected)
            await readers.shutdown()
            await #expect(throws: (any Error).self) { try await readers.run(SQLStatement(sql: "SELECT 1", binds: [])) }
        }
    }
}
