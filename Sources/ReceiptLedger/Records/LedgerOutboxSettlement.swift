/// How one claimed outbox entry's attempt ended (``Ledger/settleOutbox(_:)``).
public struct LedgerOutboxSettlement: Sendable, Hashable {
    /// The attempt's end.
    public enum Outcome: Sendable, Hashable {
        /// The target acknowledged it (a 2xx): the entry is deleted, whoever holds it now.
        case delivered
        /// It failed: due again at `atMilliseconds`, with the failure kept (only while `holder` still holds it).
        case retry(atMilliseconds: Int64, error: String)
        /// It failed past the deadline: parked, with the failure kept (only while `holder` still holds it).
        case parked(error: String)
    }

    public var target: String
    public var notificationUUID: String
    /// The claim's holder.
    public var holder: String
    public var outcome: Outcome

    public init(target: String, notificationUUID: String, holder: String, outcome: Outcome) {
        self.target = target
        self.notificationUUID = notificationUUID
        self.holder = holder
        self.outcome = outcome
    }
}
