@testable import ReceiptLedger
import Testing

/// The snapshot query is derived from the column tables: each table's columns are selected and read back by name,
/// so a column a record writes is a column it reads.
@Suite("Ledger snapshot read")
struct LedgerSnapshotReadTests {
    static let query = LedgerQuery(
        environment: .sandbox, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"])
    static let read = LedgerSnapshotRead.shared

    @Test("every column but the scope's is read back (and a transaction's JWS, read on its own)")
    func everyColumnIsRead() {
        let scope = ["environment", "bundle_id"]
        #expect(LedgerTransaction.table.columns.filter { $0.read == nil }.map(\.name) == scope + ["signed_jws"])
        #expect(LedgerRenewalInfo.table.columns.filter { $0.read == nil }.map(\.name) == scope)
        #expect(LedgerOriginalTransaction.table.columns.filter { $0.read == nil }.map(\.name).sorted() == scope.sorted())
        // A row is as narrow as the widest table, every column of a table has its own place, and a place holds one
        // type.
        let widest = [
            LedgerTransaction.table.readColumns.count, LedgerRenewalInfo.table.readColumns.count,
            LedgerOriginalTransaction.table.readColumns.count,
        ].max()
        #expect(Self.read.placeTypes.count == widest)
        func placed<Record>(_ table: LedgerTable<Record>) {
            let positions = table.readColumns.map { Self.read.position(of: $0.name, tag: table.tag) }
            #expect(positions.allSatisfy { $0 != nil }, "\(table.name)")
            #expect(Set(positions.compactMap { $0 }).count == positions.count, "\(table.name)")
            for (column, position) in zip(table.readColumns, positions) {
                #expect(position.map { Self.read.placeTypes[$0 - 1] } == column.type, "\(table.name).\(column.name)")
            }
        }
        placed(LedgerTransaction.table)
        placed(LedgerRenewalInfo.table)
        placed(LedgerOriginalTransaction.table)
        // Columns of the same name share a place.
        #expect(Self.read.position(of: "original_transaction_id", tag: "t") == Self.read.position(of: "original_transaction_id", tag: "r"))
        #expect(Self.read.position(of: "source", tag: "t") == Self.read.position(of: "source", tag: "r"))
    }

    @Test("a record written by its column table reads back equal")
    func roundTrip() throws {
        let transaction = LedgerTransaction(
            environment: .sandbox, bundleIdentifier: "com.example.app", transactionIdentifier: "1001",
            originalTransactionIdentifier: "1000", productIdentifier: "com.example.monthly",
            purchaseDateMilliseconds: 10, expiresDateMilliseconds: nil, cancellationDateMilliseconds: 30,
            receiptHash: "ab", receiptCreationMilliseconds: 40, json: Array(#"{"a":"b"}"#.utf8), source: .api)
        let info = LedgerRenewalInfo(
            environment: .sandbox, bundleIdentifier: "com.example.app", originalTransactionIdentifier: "1000",
            productIdentifier: "com.example.yearly", updatedMilliseconds: 50, json: Array("{}".utf8), source: .notification)
        let original = LedgerOriginalTransaction(
            environment: .sandbox, bundleIdentifier: "com.example.app", originalTransactionIdentifier: "1000",
            latestReceiptHash: nil, latestReceiptCreationMilliseconds: 60, apiRefreshedMilliseconds: 70)
        let rows = [
            Self.row(LedgerTransaction.table, transaction),
            Self.row(LedgerRenewalInfo.table, info),
            Self.row(LedgerOriginalTransaction.table, original),
        ]
        let snapshot = try Self.read.snapshot(rows, query: Self.query)
        #expect(snapshot == LedgerSnapshot(transactions: [transaction], renewalInfo: [info], originalTransactions: [original]))
    }

    @Test("a row of unexpected shape is incompatible_schema, not a crash")
    func malformedRows() {
        let good = Self.row(
            LedgerRenewalInfo.table,
            LedgerRenewalInfo(
                environment: .sandbox, bundleIdentifier: "com.example.app", originalTransactionIdentifier: "1000",
                productIdentifier: "p", updatedMilliseconds: 1, json: []))
        var wrongType = good
        wrongType[Self.read.position(of: "updated_ms", tag: "r") ?? 0] = .text("1")
        var unknownKind = good
        unknownKind[0] = .text("x")
        for rows in [[Array(good.dropLast())], [wrongType], [unknownKind], [[SQLValue]()]] {
            #expect(throws: LedgerError(.incompatibleSchema, "")) { try Self.read.snapshot(rows, query: Self.query) }
        }
    }

    /// The row the snapshot query returns for `record`: its table's tag, its values at their names' places, NULL
    /// elsewhere.
    static func row<Record>(_ table: LedgerTable<Record>, _ record: Record) -> [SQLValue] {
        var row = [SQLValue.text(table.tag)] + Array(repeating: SQLValue.null, count: Self.read.placeTypes.count)
        for column in table.readColumns {
            if let position = Self.read.position(of: column.name, tag: table.tag) { row[position] = column.value(record) }
        }
        return row
    }
}
