/// What the ledger holds around a query, read in one round trip: its transactions (newest first) and renewal
/// information.
public struct LedgerSnapshot: Sendable, Hashable {
    /// Transactions, newest first.
    public var transactions: [LedgerTransaction]
    /// Renewal information, by original transaction id.
    public var renewalInfo: [LedgerRenewalInfo]

    /// Creates a snapshot.
    public init(transactions: [LedgerTransaction], renewalInfo: [LedgerRenewalInfo]) {
        self.transactions = transactions
        self.renewalInfo = renewalInfo
    }
}
