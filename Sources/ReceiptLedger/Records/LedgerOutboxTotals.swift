/// How one forwarding target's outbox stands (``Ledger/outboxTotals()``).
public struct LedgerOutboxTotals: Sendable, Hashable {
    public var target: String
    /// Entries still to send.
    public var pending: Int64
    /// Entries whose deadline passed.
    public var parked: Int64
    /// When the oldest pending entry was written, in milliseconds; `nil` with none pending.
    public var oldestPendingMilliseconds: Int64?

    public init(target: String, pending: Int64, parked: Int64, oldestPendingMilliseconds: Int64?) {
        self.target = target
        self.pending = pending
        self.parked = parked
        self.oldestPendingMilliseconds = oldestPendingMilliseconds
    }
}
