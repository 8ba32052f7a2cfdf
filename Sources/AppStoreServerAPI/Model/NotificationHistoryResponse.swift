/// One page of Get Notification History (`NotificationHistoryResponse`).
///
/// `Notification` is `String` (the signed payload as sent) from calls whose name ends in `Unverified`, and
/// ``VerifiedNotification`` from the others.
public struct NotificationHistoryResponse<Notification: Sendable & Hashable>: Sendable, Hashable {
    /// The token for the next page (`paginationToken`).
    public var paginationToken: String?
    /// Whether more pages follow (`hasMore`).
    public var hasMore: Bool
    /// The notifications (`notificationHistory`).
    public var notificationHistory: [NotificationHistoryItem<Notification>]

    public init(
        paginationToken: String? = nil,
        hasMore: Bool = false,
        notificationHistory: [NotificationHistoryItem<Notification>] = []
    ) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }

    enum CodingKeys: String, CodingKey {
        case paginationToken, hasMore, notificationHistory
    }
}

extension NotificationHistoryResponse: Codable where Notification: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.paginationToken = try container.decodeIfPresent(String.self, forKey: .paginationToken)
        self.hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false
        self.notificationHistory =
            try container.decodeIfPresent([NotificationHistoryItem<Notification>].self, forKey: .notificationHistory)
            ?? []
    }
}
