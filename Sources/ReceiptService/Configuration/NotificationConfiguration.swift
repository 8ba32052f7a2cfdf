/// How `POST /notifications/v2` treats App Store Server Notifications V2 (the anchors, the allow list and the Xcode
/// switch are the service's own, shared with verifyReceipt).
///
/// Apple retries a notification it got no HTTP 200 for about 1, 12, 24, 48 and 72 hours later, with the same
/// `signedDate` and `notificationUUID`; the default maximum age lets the last retry in.
public struct NotificationConfiguration: Sendable {
    /// A notification signed longer ago than this is refused (`notification_too_old`), recorded before or not, so a
    /// captured one cannot be replayed into a ledger that has lost it. Default: 4 days.
    public var maximumAge: Duration = .seconds(4 * 86_400)
    /// How far in the future `signedDate` may lie (clock skew) before it is refused
    /// (`notification_signed_in_future`). Default: 5 minutes.
    public var maximumClockSkew: Duration = .seconds(300)

    /// The defaults.
    public init() {}

    /// Whether `seconds` is an accepted maximum age: one minute to one year.
    public static func isValidMaximumAge(_ seconds: Double) -> Bool {
        seconds >= 60 && seconds <= 365 * 86_400
    }
}
