import PostgresNIO

/// The ledger's snapshot query (``LedgerStatements/postgresSnapshotSQL``) as a named prepared statement: PostgresNIO
/// prepares it once per connection, so PostgreSQL parses and plans the `/verifyReceipt` read once, not per request.
struct PostgresSnapshotStatement: PostgresPreparedStatement {
    typealias Row = [SQLValue]

    static let name = "receiptkit_snapshot_v6"
    static let sql = LedgerStatements.postgresSnapshotSQL
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .textArray]

    /// The statement's values: environment, bundle id, and the original transaction ids as one list.
    let binds: [SQLValue]

    func makeBindings() throws -> PostgresBindings {
        try PostgresBackend.Session.bindings(self.binds)
    }

    func decodeRow(_ row: PostgresRow) throws -> [SQLValue] {
        try row.map(PostgresBackend.Session.value)
    }
}
