/// What a ``Ledger/record(_:)`` call changed.
public struct LedgerWriteSummary: Sendable, Hashable {
    /// Whether the receipt was new to the ledger (`false` when it had been recorded before).
    public var receiptInserted: Bool
    /// Transactions inserted or replaced by a newer receipt's version.
    public var transactionsWritten: Int

    /// Creates a summary.
    public init(receiptInserted: Bool, transactionsWritten: Int) {
        self.receiptInserted = receiptInserted
        self.transactionsWritten = transactionsWritten
    }
}
