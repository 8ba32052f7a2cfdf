/// What the ledger holds around a query, read in one round trip: its transactions (newest first) and renewal
/// information.
public struct LedgerSnapshot: Sendable, Hashable {
    /// ``Ledger/transactions(matching:)``.
    public var transactions: [LedgerTransaction]
    /// ``Ledger/renewalInfo(matching:)``.
    public var renewalInfo: [LedgerRenewalInfo]

    /// Creates a snapshot.
    public init(transactions: [LedgerTransaction], renewalInfo: [LedgerRenewalInfo]) {
        self.transactions = transactions
        self.renewalInfo = renewalInfo
    }
}
