/// How the service recovers App Store Server Notifications that never reached `POST /notifications/v2`: for each
/// app with an App Store Server API key (`private_key_file`), it asks Get Notification History for what it missed —
/// at start, then every ``interval`` — and records each notification found as a posted one is recorded (verified,
/// replay-protected by `notificationUUID`, applied by `signedDate`), so one that did arrive costs nothing.
///
/// A window runs from where the previous completed one ended (its cursor, kept in the ledger) less one interval —
/// the windows overlap by one, for notifications Apple lists late — to now. The first starts at the newest
/// notification the ledger holds for the app (less one interval), or ``lookBack`` ago when it holds none; no window
/// starts further back than Apple keeps notifications (180 days). A window that fails (Apple unreachable, the
/// ledger unavailable, a notification that could not be checked) leaves the cursor where it was: the next runs it
/// again. On a ledger several instances share, one instance at a time runs an app's windows.
///
/// Settings file: `"notification_backfill": {"enabled": true, "interval_seconds": 900, "look_back_seconds": 604800}`
/// (each member optional).
public struct NotificationBackfillConfiguration: Sendable, Hashable {
    /// Whether the service backfills at all (default `true`: every app with a private key).
    public var isEnabled = true
    /// How often a window runs (default 15 minutes; 60 seconds to 1 day).
    public var interval: Duration = .seconds(900)
    /// How far back the first window reaches when the ledger holds no notification of the app (default 7 days; 60
    /// seconds to Apple's 180 days).
    public var lookBack: Duration = .seconds(7 * 86_400)

    /// The longest ``interval`` and ``lookBack`` the settings accept, in seconds.
    static let intervalRange: ClosedRange<Double> = 60...86_400
    static let lookBackRange: ClosedRange<Double> = 60...15_552_000

    /// The defaults.
    public init() {}
}
