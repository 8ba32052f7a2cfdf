/// What the ledger holds around a query, read in one round trip: its transactions (newest first), renewal
/// information, and per original transaction id the newest receipt and the last App Store Server API refresh.
public struct LedgerSnapshot: Sendable, Hashable {
    /// Transactions, newest first.
    public var transactions: [LedgerTransaction]
    /// Renewal information, by original transaction id.
    public var renewalInfo: [LedgerRenewalInfo]
    /// The query's original transaction ids the ledger has a record of, by original transaction id.
    public var originalTransactions: [LedgerOriginalTransaction]

    /// Creates a snapshot.
    public init(
        transactions: [LedgerTransaction],
        renewalInfo: [LedgerRenewalInfo],
        originalTransactions: [LedgerOriginalTransaction] = []
    ) {
        self.transactions = transactions
        self.renewalInfo = renewalInfo
        self.originalTransactions = originalTransactions
    }

    /// The hash of the newest receipt (by creation date, then hash) that carried any of the snapshot's
    /// transactions: verifyReceipt's `latest_receipt`. `nil` when only signed data taught the ledger about them.
    public var latestReceiptHash: String? {
        var newest: (created: Int64, hash: String)?
        for record in self.originalTransactions {
            guard let hash = record.latestReceiptHash else { continue }
            let candidate = (record.latestReceiptCreationMilliseconds ?? 0, hash)
            if newest.map({ candidate > $0 }) ?? true { newest = candidate }
        }
        return newest?.hash
    }

    /// When the App Store Server API last refreshed `originalTransactionIdentifier`, in milliseconds; `nil` when
    /// never (or when the ledger has no record of it).
    public func apiRefreshedMilliseconds(originalTransactionIdentifier: String) -> Int64? {
        self.originalTransactions.first { $0.originalTransactionIdentifier == originalTransactionIdentifier }?
            .apiRefreshedMilliseconds
    }
}
