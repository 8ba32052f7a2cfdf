import ReceiptLedger

/// What the ledger knows around one receipt once it has been recorded: the transactions of its original
/// transaction ids, the newest receipt that carried them, and their renewal information.
struct LedgerHistory: Sendable {
    var transactions: [LedgerTransaction]
    var latestReceipt: [UInt8]?
    var renewalInfo: [LedgerRenewalInfo]

    static func record(_ entry: LedgerReceipt, in ledger: any Ledger, metrics: ServiceMetrics) async throws(LedgerError)
        -> LedgerHistory
    {
        do {
            let summary = try await ledger.record(entry)
            metrics.countLedgerWrite(summary)
        } catch {
            metrics.countLedgerFailure()
            throw error
        }
        let snapshot = try await ledger.snapshot(matching: LedgerQuery(receipt: entry))
        let transactions = snapshot.transactions
        var latestReceipt: [UInt8]?
        if let newest = transactions.max(by: {
            ($0.receiptCreationMilliseconds, $0.receiptHash) < ($1.receiptCreationMilliseconds, $1.receiptHash)
        }) {
            latestReceipt = newest.receiptHash == entry.hash ? entry.bytes : try await ledger.receipt(hash: newest.receiptHash)
        }
        let renewalInfo = snapshot.renewalInfo
        return LedgerHistory(transactions: transactions, latestReceipt: latestReceipt, renewalInfo: renewalInfo)
    }

    /// `latest_receipt_info`: every transaction newest first, or with `exclude-old-transactions` only the newest
    /// of each subscription product (purchases without an expiry date are not subscriptions and are all kept).
    func latestReceiptInfo(excludingOld: Bool) -> [LedgerTransaction] {
        guard excludingOld else { return self.transactions }
        var seenProducts = Set<String>()
        return self.transactions.filter { transaction in
            transaction.expiresDateMilliseconds == nil || seenProducts.insert(transaction.productIdentifier).inserted
        }
    }
}
