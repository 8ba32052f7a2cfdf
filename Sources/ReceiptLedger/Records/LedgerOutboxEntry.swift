public import AppStorePKI

/// One notification waiting in the outbox for one forwarding target (``LedgerForwarding``). Delivered entries are
/// deleted; an entry is `pending` until then, or `parked` once its deadline passed without a delivery.
public struct LedgerOutboxEntry: Sendable, Hashable {
    /// Whether an entry is still retried.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Sent when due, in order after the earlier pending entries of its original transaction.
        case pending
        /// Its deadline passed: no longer sent, and no longer holding back its original transaction's later ones,
        /// until an operator retries it.
        case parked
    }

    /// The target's name.
    public var target: String
    public var notificationUUID: String
    public var environment: AppStoreEnvironment
    public var bundleIdentifier: String
    /// The original transaction the notification is about; entries of one original transaction are sent in
    /// `signedDate` order. `nil` for a notification about none (`TEST`, say): then it is ordered alone.
    public var originalTransactionIdentifier: String?
    public var notificationType: String
    public var subtype: String?
    /// The notification's `signedDate`, in milliseconds.
    public var signedMilliseconds: Int64
    /// When the entry was written (the notification recorded), in milliseconds.
    public var createdMilliseconds: Int64
    /// The body to send, byte for byte as recorded (stored around the notification's signed payload, and put
    /// together again when read). Empty when it refers to a notification no longer in the ledger (removed by hand):
    /// such an entry is parked by the claim that finds it, ``lastError`` saying why.
    public var body: [UInt8]
    public var state: State
    /// Attempts begun so far (an attempt is counted when it is claimed, so one a crash cut short counts).
    public var attempts: Int64
    /// When the next attempt is due, in milliseconds.
    public var nextAttemptMilliseconds: Int64
    /// When retries stop, in milliseconds.
    public var deadlineMilliseconds: Int64
    /// Why the last attempt failed (`HTTP 503`, `timeout: …`), or `nil`.
    public var lastError: String?

    public init(
        target: String, notificationUUID: String, environment: AppStoreEnvironment, bundleIdentifier: String,
        originalTransactionIdentifier: String?, notificationType: String, subtype: String?, signedMilliseconds: Int64,
        createdMilliseconds: Int64, body: [UInt8], state: State, attempts: Int64, nextAttemptMilliseconds: Int64,
        deadlineMilliseconds: Int64, lastError: String?
    ) {
        self.target = target
        self.notificationUUID = notificationUUID
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedMilliseconds = signedMilliseconds
        self.createdMilliseconds = createdMilliseconds
        self.body = body
        self.state = state
        self.attempts = attempts
        self.nextAttemptMilliseconds = nextAttemptMilliseconds
        self.deadlineMilliseconds = deadlineMilliseconds
        self.lastError = lastError
    }
}
