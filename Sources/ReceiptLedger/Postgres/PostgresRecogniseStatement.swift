import PostgresNIO

/// The ledger's recognising snapshot query (``LedgerStatements/postgresRecogniseSQL``) as a named prepared
/// statement: a receipt posted again is recognised and its snapshot read in one round trip, planned once per
/// connection.
struct PostgresRecogniseStatement: PostgresPreparedStatement {
    typealias Row = [SQLValue]

    static let name = "receiptkit_recognise_v6"
    static let sql = LedgerStatements.postgresRecogniseSQL
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .textArray, .text]

    /// The statement's values: environment, bundle id, the original transaction ids as one list, the receipt hash.
    let binds: [SQLValue]

    func makeBindings() throws -> PostgresBindings {
        try PostgresBackend.Session.bindings(self.binds)
    }

    func decodeRow(_ row: PostgresRow) throws -> [SQLValue] {
        try row.map(PostgresBackend.Session.value)
    }
}
