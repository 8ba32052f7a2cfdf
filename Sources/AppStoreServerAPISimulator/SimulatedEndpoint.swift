/// One endpoint of the App Store Server API as ``AppStoreServerSimulator`` serves it: what its request counters and
/// scripted faults are keyed by.
public struct SimulatedEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method and Apple's path, with its parameter in braces (`GET /inApps/v2/history/{transactionId}`).
    public let description: String

    init(_ description: String) { self.description = description }

    /// Get Transaction History v2.
    public static let transactionHistory = Self("GET /inApps/v2/history/{transactionId}")
    /// Get Transaction Info.
    public static let transactionInfo = Self("GET /inApps/v1/transactions/{transactionId}")
    /// Get App Transaction Info.
    public static let appTransactionInfo = Self("GET /inApps/v1/transactions/appTransactions/{transactionId}")
    /// Get All Subscription Statuses.
    public static let subscriptionStatuses = Self("GET /inApps/v1/subscriptions/{transactionId}")
    /// Look Up Order ID.
    public static let orderLookup = Self("GET /inApps/v1/lookup/{orderId}")
    /// Get Refund History v2.
    public static let refundHistory = Self("GET /inApps/v2/refund/lookup/{transactionId}")
    /// Get Notification History.
    public static let notificationHistory = Self("POST /inApps/v1/notifications/history")
    /// Request a Test Notification.
    public static let requestTestNotification = Self("POST /inApps/v1/notifications/test")
    /// Get Test Notification Status.
    public static let testNotificationStatus = Self("GET /inApps/v1/notifications/test/{testNotificationToken}")
    /// Send Consumption Information (V2).
    public static let consumption = Self("PUT /inApps/v2/transactions/consumption/{transactionId}")
    /// Send Consumption Information V1.
    public static let consumptionV1 = Self("PUT /inApps/v1/transactions/consumption/{transactionId}")
    /// Extend a Subscription Renewal Date.
    public static let extendRenewalDate = Self("PUT /inApps/v1/subscriptions/extend/{originalTransactionId}")
    /// Set App Account Token.
    public static let appAccountToken = Self("PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken")

    /// Every endpoint the simulator serves.
    public static let all: [SimulatedEndpoint] = [
        .transactionHistory, .transactionInfo, .appTransactionInfo, .subscriptionStatuses, .orderLookup, .refundHistory,
        .notificationHistory, .requestTestNotification, .testNotificationStatus, .consumption, .consumptionV1,
        .extendRenewalDate, .appAccountToken,
    ]
}
