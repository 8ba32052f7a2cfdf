/// One notification in a ``NotificationHistoryResponse`` (`NotificationHistoryResponseItem`), and the answer of Get
/// Test Notification Status (`CheckTestNotificationResponse`), which has the same shape.
public struct NotificationHistoryItem<Notification: Sendable & Hashable>: Sendable, Hashable {
    /// The notification (`signedPayload`).
    public var notification: Notification?
    /// Each attempt to send it (`sendAttempts`).
    public var sendAttempts: [SendAttempt]

    public init(notification: Notification? = nil, sendAttempts: [SendAttempt] = []) {
        self.notification = notification
        self.sendAttempts = sendAttempts
    }

    enum CodingKeys: String, CodingKey {
        case notification = "signedPayload"
        case sendAttempts
    }
}

extension NotificationHistoryItem: Codable where Notification: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.notification = try container.decodeIfPresent(Notification.self, forKey: .notification)
        self.sendAttempts = try container.decodeIfPresent([SendAttempt].self, forKey: .sendAttempts) ?? []
    }
}
