/// Reads the rows of the snapshot `SELECT` back into records; a row of unexpected shape is an
/// ``LedgerError/Code/incompatibleSchema`` error, never a crash.
enum LedgerRowReader {
    /// Columns: kind, transaction_id, original_transaction_id, product_id, purchase_ms (or updated_ms, or the newest
    /// receipt's creation), expires_ms (or the API refresh time), cancellation_ms, receipt_hash, receipt_created_ms,
    /// JSON, source.
    static func snapshot(_ rows: [[SQLValue]], query: LedgerQuery) throws(LedgerError) -> LedgerSnapshot {
        var transactions: [LedgerTransaction] = []
        var infos: [LedgerRenewalInfo] = []
        var originals: [LedgerOriginalTransaction] = []
        transactions.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == 11 else { throw Self.shape("snapshot row") }
            let original = try Self.text(row[2])
            switch row[0] {
            case .text("t"):
                transactions.append(
                    LedgerTransaction(
                        environment: query.environment,
                        bundleIdentifier: query.bundleIdentifier,
                        transactionIdentifier: try Self.text(row[1]),
                        originalTransactionIdentifier: original,
                        productIdentifier: try Self.text(row[3]),
                        purchaseDateMilliseconds: try Self.optionalInteger(row[4]),
                        expiresDateMilliseconds: try Self.optionalInteger(row[5]),
                        cancellationDateMilliseconds: try Self.optionalInteger(row[6]),
                        receiptHash: try Self.text(row[7]),
                        receiptCreationMilliseconds: try Self.integer(row[8]),
                        json: Array(try Self.text(row[9]).utf8),
                        source: LedgerSource(rawValue: try Self.text(row[10]))
                    ))
            case .text("r"):
                infos.append(
                    LedgerRenewalInfo(
                        environment: query.environment,
                        bundleIdentifier: query.bundleIdentifier,
                        originalTransactionIdentifier: original,
                        productIdentifier: try Self.text(row[3]),
                        updatedMilliseconds: try Self.integer(row[4]),
                        json: Array(try Self.text(row[9]).utf8),
                        source: LedgerSource(rawValue: try Self.text(row[10]))
                    ))
            case .text("o"):
                originals.append(
                    LedgerOriginalTransaction(
                        environment: query.environment,
                        bundleIdentifier: query.bundleIdentifier,
                        originalTransactionIdentifier: original,
                        latestReceiptHash: try Self.optionalText(row[7]),
                        latestReceiptCreationMilliseconds: try Self.optionalInteger(row[4]),
                        apiRefreshedMilliseconds: try Self.optionalInteger(row[5])
                    ))
            default:
                throw Self.shape("snapshot row kind")
            }
        }
        transactions.sort(by: LedgerTransaction.isNewer)
        infos.sort { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        originals.sort { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        return LedgerSnapshot(transactions: transactions, renewalInfo: infos, originalTransactions: originals)
    }

    private static func optionalText(_ value: SQLValue) throws(LedgerError) -> String? {
        if case .null = value { return nil }
        return try Self.text(value)
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
