/// A ledger table and the record kept in it: the table's name, the tag its rows carry in the snapshot query, its
/// column table, the columns that identify a row, and the record a read starts from (its scope taken from the
/// query; every other column read back into it).
struct LedgerTable<Record>: Sendable {
    let name: String
    /// The `kind` the snapshot query gives this table's rows.
    let tag: String
    let columns: [LedgerColumn<Record>]
    /// The columns that identify a row (the upsert's conflict target, never updated).
    let keyColumns: [String]
    /// A record of the query's environment and app, before its columns are read into it.
    let blank: @Sendable (LedgerQuery) -> Record

    /// The columns a read selects (every one but the scope's).
    var readColumns: [LedgerColumn<Record>] { self.columns.filter { $0.read != nil } }
}
