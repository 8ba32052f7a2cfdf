@testable import ReceiptLedger
import Testing

/// The snapshot query is derived from the column tables: each table's columns are selected and read back by name,
/// so a column a record writes is a column it reads.
@Suite("Ledger snapshot read")
struct LedgerSnapshotReadTests {
    static let query = LedgerQuery(
        environment: .sandbox, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"])
    static let read = LedgerSnapshotRead.shared

    @Test("every column but the scope's is read back")
    func everyColumnIsRead() {
        let scope = ["environment", "bundle_id"]
        #expect(LedgerTransaction.table.columns.filter { $0.read == nil }.map(\.name) == scope)
        #expect(LedgerRenewalInfo.table.columns.filter { $0.read == nil }.map(\.name) == scope)
        #expect(LedgerOriginalTransaction.table.columns.filter { $0.read == nil }.map(\.name).sorted() == scope.sorted())
        // Each name once, each with one type wherever it appears.
        #expect(Set(Self.read.columnNames).count == Self.read.columnNames.count)
        var types: [String: String] = [:]
        for column in LedgerTransaction.table.readColumns { types[column.name] = column.type.rawValue }
        for column in LedgerRenewalInfo.table.readColumns {
            #expect(types[column.name, default: column.type.rawValue] == column.type.rawValue, "\(column.name)")
        }
        #expect(Self.read.columnNames.first == "kind")
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
        wrongType[Self.read.columnNames.firstIndex(of: "updated_ms") ?? 0] = .text("1")
        var unknownKind = good
        unknownKind[0] = .text("x")
        for rows in [[Array(good.dropLast())], [wrongType], [unknownKind], [[SQLValue]()]] {
            #expect(throws: LedgerError(.incompatibleSchema, "")) { try Self.read.snapshot(rows, query: Self.query) }
        }
    }

    /// The row the snapshot query returns for `record`: its table's tag, its values under their names, NULL elsewhere.
    static func row<Record>(_ table: LedgerTable<Record>, _ record: Record) -> [SQLValue] {
        let values = Dictionary(table.readColumns.map { ($0.name, $0.value(record)) }, uniquingKeysWith: { a, _ in a })
        return [.text(table.tag)] + Self.read.columnNames.dropFirst().map { values[$0] ?? .null }
    }
}
