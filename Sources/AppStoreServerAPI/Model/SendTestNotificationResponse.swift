/// The answer of Request a Test Notification (`SendTestNotificationResponse`).
public struct SendTestNotificationResponse: Sendable, Hashable, Codable {
    /// The token to ask Get Test Notification Status with (`testNotificationToken`).
    public var testNotificationToken: String?

    public init(testNotificationToken: String? = nil) {
        self.testNotificationToken = testNotificationToken
    }
}
