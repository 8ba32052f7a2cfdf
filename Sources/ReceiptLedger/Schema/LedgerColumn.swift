/// A column of a ledger table and the value a record puts in it: one row of a record's column table
/// (``LedgerTransaction/columns``, ``LedgerRenewalInfo/columns``), which the upserts read for both the column list
/// and the bound values, so the two cannot fall out of step.
struct LedgerColumn<Record>: Sendable {
    let name: String
    let value: @Sendable (Record) -> SQLValue

    init(_ name: String, _ value: @escaping @Sendable (Record) -> SQLValue) {
        self.name = name
        self.value = value
    }
}
