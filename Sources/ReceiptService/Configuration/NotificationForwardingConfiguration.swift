/// How the service sends verified notifications on to the app's own backends (``targets``): at least once, in
/// `signedDate` order per original transaction, through an outbox in the ledger written in the same transaction as
/// the notification — so nothing is acknowledged to Apple that is not also to be sent on. Several instances sharing
/// a PostgreSQL ledger share its outbox, and never send one entry twice at the same time.
///
/// An attempt that gets no 2xx within ``attemptTimeout`` is retried with exponential backoff and jitter (from
/// ``baseDelay``, doubling, at most ``maximumDelay``) until ``deadline`` after the notification was recorded; then
/// the entry is parked and counted (`receiptkit notifications outbox list|retry|drop`). Backfilled notifications
/// are forwarded too; a notification that reaches the service twice is forwarded once.
///
/// Settings file: `"notification_targets": […]` and
/// `"notification_forwarding": {"deadline_seconds": 259200, "attempt_timeout_seconds": 10, "max_in_flight": 32}`.
public struct NotificationForwardingConfiguration: Sendable, Hashable {
    /// Where notifications go (none by default).
    public var targets: [NotificationTarget] = []
    /// How long an entry is retried after its notification was recorded (default 3 days, as Apple retries).
    public var deadline: Duration = .seconds(3 * 86_400)
    /// How long one attempt may take, connection and answer (default 10 s).
    public var attemptTimeout: Duration = .seconds(10)
    /// Attempts running at once in this instance for each target, claimed and settled together (default 32).
    public var maximumInFlight = 32
    /// The first retry's delay (default 10 s); each further one doubles, with jitter (half to all of it).
    public var baseDelay: Duration = .seconds(10)
    /// The longest delay between attempts (default 1 hour).
    public var maximumDelay: Duration = .seconds(3600)

    static let deadlineRange: ClosedRange<Double> = 60...2_592_000
    static let attemptTimeoutRange: ClosedRange<Double> = 0.001...300
    static let inFlightRange: ClosedRange<Int> = 1...1024

    /// The defaults.
    public init() {}

    /// The targets of `bundleIdentifier`.
    func targets(of bundleIdentifier: String) -> [NotificationTarget] {
        self.targets.filter { $0.bundleIdentifier == bundleIdentifier }
    }
}
