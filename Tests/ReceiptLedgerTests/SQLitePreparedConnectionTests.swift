import Foundation
import Testing

@testable import ReceiptLedger

/// The ledger's own SQLite connections (``SQLitePreparedConnection``, ``SQLiteReaders``): values read as SQLiteNIO read
/// them, statements kept prepared within their bound and bound afresh each run, failures typed.
@Suite("SQLite connections")
struct SQLitePreparedConnectionTests {
    /// A fresh file database's backend (and the file's path), shut down whatever `body` does.
    static func withBackend(_ body: (SQLiteBackend, String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let backend = try await SQLiteBackend.open(path: path, readers: 2)
        do {
            try await body(backend, path)
        } catch {
            await backend.shutdown()
            throw error
        }
        await backend.shutdown()
    }

    /// An in-memory backend (one connection: the writer), shut down whatever `body` does.
    static func withMemoryBackend(_ body: (SQLiteBackend) async throws -> Void) async throws {
        let backend = try await SQLiteBackend.open(path: nil, readers: 1)
        do {
            try await body(backend)
        } catch {
            await backend.shutdown()
            throw error
        }
        await backend.shutdown()
    }

    /// A file database with table `t` of every storage class, written through the ledger's SQLite writer.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        try await Self.withBackend { backend, path in
            try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(
                    SQLStatement(sql: "CREATE TABLE t (id INTEGER, name TEXT, data BLOB, real REAL)", binds: []))
                _ = try await session.run(
                    SQLStatement(
                        sql: "INSERT INTO t VALUES (1, 'ä€𝄞', x'00ff10', 1.5), (2, '', x'', NULL), (-9223372036854775808, NULL, NULL, NULL)",
                        binds: []))
            }
            try await body(path)
        }
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
                guard let error = error as? LedgerError else { return false }
                return error.code == .statementFailed && error.reason.contains("readonly")
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
            do {
                let results = try await withThrowingTaskGroup(of: [[SQLValue]].self) { group in
                    for index in 0..<200 {
                        group.addTask {
                            try await readers.run(
                                SQLStatement(sql: "SELECT ?1 + id FROM t WHERE id = 1", binds: [.integer(Int64(index))]))
                        }
                    }
                    return try await group.reduce(into: [[[SQLValue]]]()) { $0.append($1) }
                }
                let answered: Set<SQLValue?> = Set(results.map { $0.first?.first })
                let expected: Set<SQLValue?> = Set((1...200).map { SQLValue.integer(Int64($0)) })
                #expect(answered == expected)
            } catch {
                await readers.shutdown()
                throw error
            }
            await readers.shutdown()
            await readers.shutdown()  // a second call returns at once
            await #expect(performing: { try await readers.run(SQLStatement(sql: "SELECT 1", binds: [])) }, throws: { error in
                (error as? LedgerError)?.code == .unavailable
            })
        }
    }

    @Test func aKeptStatementRunsAgainAfterAFailedStepOrBind() async throws {
        try await Self.withDatabase { path in
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64)
            defer { connection.close() }
            let sql = "SELECT abs(?1)"
            // abs of the smallest integer overflows: the step fails.
            #expect(performing: { try connection.run(SQLStatement(sql: sql, binds: [.integer(.min)])) }, throws: { error in
                (error as? LedgerError)?.code == .statementFailed
            })
            #expect(try connection.run(SQLStatement(sql: sql, binds: [.integer(-7)])) == [[.integer(7)]])
            // One value too many for its one parameter: the bind fails.
            #expect(performing: { try connection.run(SQLStatement(sql: sql, binds: [.integer(1), .integer(2)])) }, throws: { error in
                (error as? LedgerError)?.code == .statementFailed
            })
            #expect(try connection.run(SQLStatement(sql: sql, binds: [.integer(-8)])) == [[.integer(8)]])
        }
    }

    @Test func theWriterBindsEveryKindAndKeepsItsDurableSettings() async throws {
        try await Self.withBackend { backend, _ in
            let values: [SQLValue] = [.integer(.min), .text("ä\u{1}€"), .blob([]), .blob([0, 1, 255]), .null]
            let stored = try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: "CREATE TABLE b (a, b, c, d, e)", binds: []))
                _ = try await session.run(SQLStatement(sql: "INSERT INTO b VALUES (?1, ?2, ?3, ?4, ?5)", binds: values))
                return try await session.run(SQLStatement(sql: "SELECT a, b, c, d, e FROM b", binds: []))
            }
            #expect(stored == [values])
            let read = try await backend.read { session in
                try await session.run(SQLStatement(sql: "SELECT typeof(c), length(c) FROM b", binds: []))
            }
            #expect(read == [[.text("blob"), .integer(0)]], "an empty blob is stored as a blob")
            let settings = try await backend.transaction(exclusive: true) { session in
                let journal = try await session.run(SQLStatement(sql: "PRAGMA journal_mode", binds: []))
                let synchronous = try await session.run(SQLStatement(sql: "PRAGMA synchronous", binds: []))
                return journal + synchronous
            }
            #expect(settings == [[.text("wal")], [.integer(2)]], "WAL, synchronous = FULL")
            await backend.shutdown()  // and once more after the body: a second call returns at once
        }
    }

    @Test func aTransactionWhoseTaskIsCancelledStillEnds() async throws {
        try await Self.withMemoryBackend { backend in
            try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: "CREATE TABLE c (n)", binds: []))
            }
            // The body's task is cancelled mid-transaction: its statements still run, and the ROLLBACK after its
            // throw too — else the writer would keep the transaction open and every later BEGIN would fail.
            let cancelled = Task {
                try await backend.transaction(exclusive: true) { session in
                    _ = try await session.run(SQLStatement(sql: "INSERT INTO c VALUES (1)", binds: []))
                    withUnsafeCurrentTask { $0?.cancel() }
                    _ = try await session.run(SQLStatement(sql: "INSERT INTO c VALUES (2)", binds: []))
                    throw CancellationError()
                }
            }
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            #expect(!backend.writer.isInTransaction, "rolled back at once, not left for the next BEGIN to find")
            let rows = try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: "INSERT INTO c VALUES (3)", binds: []))
                return try await session.run(SQLStatement(sql: "SELECT n FROM c ORDER BY n", binds: []))
            }
            #expect(rows == [[.integer(3)]], "the cancelled transaction rolled back; the next one committed")
        }
    }

    @Test func theLeastRecentlyUsedStatementIsDroppedFirst() async throws {
        try await Self.withDatabase { path in
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 2)
            defer { connection.close() }
            for sql in ["SELECT 1", "SELECT 2", "SELECT 1", "SELECT 3"] {
                _ = try connection.run(SQLStatement(sql: sql, binds: []))
            }
            #expect(connection.keptStatements == ["SELECT 1", "SELECT 3"])
            #expect(connection.preparedStatements == 2, "the dropped statement was finalized")
        }
    }

    @Test func aBodyWhoseTaskIsCancelledButReturnsIsCommitted() async throws {
        try await Self.withMemoryBackend { backend in
            let committed = Task {
                try await backend.transaction(exclusive: true) { session in
                    _ = try await session.run(SQLStatement(sql: "CREATE TABLE d (n)", binds: []))
                    withUnsafeCurrentTask { $0?.cancel() }
                    _ = try await session.run(SQLStatement(sql: "INSERT INTO d VALUES (1)", binds: []))
                }
            }
            try await committed.value
            let rows = try await backend.read { session in
                try await session.run(SQLStatement(sql: "SELECT n FROM d", binds: []))
            }
            #expect(rows == [[.integer(1)]])
        }
    }

    @Test func aTransactionLeftOpenIsRolledBackBeforeTheNextBegins() async throws {
        try await Self.withMemoryBackend { backend in
            try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: "CREATE TABLE e (n)", binds: []))
            }
            // What a COMMIT and a ROLLBACK that both failed would leave: a transaction open, with a write in it.
            let writer = backend.writer
            try await backend.writerThread.runToCompletion {
                _ = try writer.run(SQLStatement(sql: "BEGIN", binds: []))
                _ = try writer.run(SQLStatement(sql: "INSERT INTO e VALUES (1)", binds: []))
            }
            let rows = try await backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: "INSERT INTO e VALUES (2)", binds: []))
                return try await session.run(SQLStatement(sql: "SELECT n FROM e", binds: []))
            }
            #expect(rows == [[.integer(2)]])
        }
    }

    @Test func aSecondShutdownLeavesTheNextOwnersLockAlone() async throws {
        try await Self.withBackend { first, path in
            await first.shutdown()
            let second = try await SQLiteBackend.open(path: path, readers: 1)
            // Before, a second shutdown closed the lock's descriptor again: by then likely the second owner's.
            await first.shutdown()
            await #expect(performing: { _ = try await SQLiteBackend.open(path: path, readers: 1) }, throws: { error in
                (error as? LedgerError)?.code == .inUse
            })
            await second.shutdown()
        }
    }

    @Test func aFileThatIsNoDatabaseIsUnavailableNamedAndLeavesNoLock() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: path))
        await #expect(performing: { _ = try await SQLiteLedger(path: path) }, throws: { error in
            guard let error = error as? LedgerError else { return false }
            return error.code == .unavailable && error.reason.contains(path)
        })
        try FileManager.default.removeItem(atPath: path)
        let ledger = try await SQLiteLedger(path: path)
        await ledger.shutdown()
    }
}
