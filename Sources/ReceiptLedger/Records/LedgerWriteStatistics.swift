/// How a ledger's writes shared their transactions since it was opened (group commit): writes divided by
/// transactions is the mean batch. The service exports it at `GET /metrics`.
public struct LedgerWriteStatistics: Sendable, Hashable {
    /// Transactions that carried writes, committed or failed (a failed batch run again write by write counts each
    /// run).
    public var transactions: UInt64
    /// Writes (receipts, notifications, signed data) those transactions carried.
    public var writes: UInt64

    /// Creates statistics.
    public init(transactions: UInt64, writes: UInt64) {
        self.transactions = transactions
        self.writes = writes
    }
}
