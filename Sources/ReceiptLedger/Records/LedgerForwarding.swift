/// Where a notification is sent on once recorded: the forwarding targets of its app, by name, each given an entry in
/// the ledger's outbox in the transaction that records the notification (``Ledger/recordNotification(_:)``) — so
/// that nothing is acknowledged to Apple that is not also in the outbox. A notification recorded before (a
/// duplicate) adds no entry: it is forwarded once.
public struct LedgerForwarding: Sendable, Hashable {
    /// The targets' names (each entry's key, with the notification's UUID).
    public var targets: [String]
    /// The request body to send on, as it reached the service (Apple's `{"signedPayload": …}`, byte for byte).
    public var body: [UInt8]
    /// When the entries stop being retried and are parked, in milliseconds since 1970.
    public var deadlineMilliseconds: Int64

    public init(targets: [String], body: [UInt8], deadlineMilliseconds: Int64) {
        self.targets = targets
        self.body = body
        self.deadlineMilliseconds = deadlineMilliseconds
    }
}
