/// Which outbox entries an operator's call is about (``Ledger/outboxEntries(_:)``,
/// ``Ledger/retryOutbox(_:atMilliseconds:deadlineMilliseconds:)``, ``Ledger/dropOutbox(_:)``); `nil` members
/// match every entry.
public struct LedgerOutboxFilter: Sendable, Hashable {
    public var target: String?
    public var notificationUUID: String?
    public var state: LedgerOutboxEntry.State?
    /// The most entries listed (oldest first); calls that change entries change every match.
    public var limit: Int

    public init(
        target: String? = nil, notificationUUID: String? = nil, state: LedgerOutboxEntry.State? = nil, limit: Int = 1000
    ) {
        self.target = target
        self.notificationUUID = notificationUUID
        self.state = state
        self.limit = limit
    }
}
