/// How `POST /notifications/v2` treats App Store Server Notifications V2 (the anchors, the allow list and the Xcode
/// switch are the service's own, shared with verifyReceipt).
///
/// Apple retries a notification it got no HTTP 200 for 1, 12, 24, 48 and 72 hours after each previous attempt, with
/// the same `signedDate` and `notificationUUID`: its last retry arrives about 157 hours after the first attempt.
/// The default maximum age (7 days, 168 h) lets it in.
public struct NotificationConfiguration: Sendable {
    /// A notification signed longer ago than this is refused (`notification_too_old`), recorded before or not, so a
    /// captured one cannot be replayed into a ledger that has lost it. Default: 7 days.
    public var maximumAge: Duration = .seconds(7 * 86_400)
    /// How far in the future `signedDate` may lie (clock skew) before it is refused
    /// (`notification_signed_in_future`). Default: 5 minutes.
    public var maximumClockSkew: Duration = .seconds(300)
    /// How notifications that never arrived are recovered from the App Store Server API (on by default for every
    /// app with an API key). The maximum age applies to posted notifications only: a backfilled one comes from Apple
    /// over its authenticated API, not from a client that may replay it.
    public var backfill = NotificationBackfillConfiguration()
    /// Where verified notifications are sent on (no target by default).
    public var forwarding = NotificationForwardingConfiguration()

    /// The defaults.
    public init() {}
}
