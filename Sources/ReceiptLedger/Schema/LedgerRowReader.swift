/// Reads the rows of the ledger's `SELECT`s back into records; a row of unexpected shape is an
/// ``LedgerError/Code/incompatibleSchema`` error, never a crash.
enum LedgerRowReader {
    static func transaction(_ row: [SQLValue], query: LedgerQuery) throws(LedgerError) -> LedgerTransaction {
        guard row.count == 9 else { throw Self.shape("transaction") }
        return LedgerTransaction(
            environment: query.environment,
            bundleIdentifier: query.bundleIdentifier,
            transactionIdentifier: try Self.text(row[0]),
            originalTransactionIdentifier: try Self.text(row[1]),
            productIdentifier: try Self.text(row[2]),
            purchaseDateMilliseconds: try Self.optionalInteger(row[3]),
            expiresDateMilliseconds: try Self.optionalInteger(row[4]),
            cancellationDateMilliseconds: try Self.optionalInteger(row[5]),
            receiptHash: try Self.text(row[6]),
            receiptCreationMilliseconds: try Self.integer(row[7]),
            json: Array(try Self.text(row[8]).utf8)
        )
    }

    static func renewalInfo(_ row: [SQLValue], query: LedgerQuery) throws(LedgerError) -> LedgerRenewalInfo {
        guard row.count == 4 else { throw Self.shape("renewal info") }
        return LedgerRenewalInfo(
            environment: query.environment,
            bundleIdentifier: query.bundleIdentifier,
            originalTransactionIdentifier: try Self.text(row[0]),
            productIdentifier: try Self.text(row[1]),
            updatedMilliseconds: try Self.integer(row[2]),
            json: Array(try Self.text(row[3]).utf8)
        )
    }

    private static func text(_ value: SQLValue) throws(LedgerError) -> String {
        guard case .text(let text) = value else { throw Self.shape("text column") }
        return text
    }

    private static func integer(_ value: SQLValue) throws(LedgerError) -> Int64 {
        guard case .integer(let integer) = value else { throw Self.shape("integer column") }
        return integer
    }

    private static func optionalInteger(_ value: SQLValue) throws(LedgerError) -> Int64? {
        if case .null = value { return nil }
        return try Self.integer(value)
    }

    private static func shape(_ what: String) -> LedgerError {
        LedgerError(.incompatibleSchema, "a stored \(what) has an unexpected type")
    }
}
