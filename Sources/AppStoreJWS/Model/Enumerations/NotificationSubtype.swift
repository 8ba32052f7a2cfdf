/// The detail of some notification types (`subtype`).
public struct NotificationSubtype: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `INITIAL_BUY`.
    public static let initialBuy = NotificationSubtype(rawValue: "INITIAL_BUY")

    /// `RESUBSCRIBE`.
    public static let resubscribe = NotificationSubtype(rawValue: "RESUBSCRIBE")

    /// `DOWNGRADE`.
    public static let downgrade = NotificationSubtype(rawValue: "DOWNGRADE")

    /// `UPGRADE`.
    public static let upgrade = NotificationSubtype(rawValue: "UPGRADE")

    /// `AUTO_RENEW_ENABLED`.
    public static let autoRenewEnabled = NotificationSubtype(rawValue: "AUTO_RENEW_ENABLED")

    /// `AUTO_RENEW_DISABLED`.
    public static let autoRenewDisabled = NotificationSubtype(rawValue: "AUTO_RENEW_DISABLED")

    /// `VOLUNTARY`.
    public static let voluntary = NotificationSubtype(rawValue: "VOLUNTARY")

    /// `BILLING_RETRY`.
    public static let billingRetry = NotificationSubtype(rawValue: "BILLING_RETRY")

    /// `PRICE_INCREASE`.
    public static let priceIncrease = NotificationSubtype(rawValue: "PRICE_INCREASE")

    /// `GRACE_PERIOD`.
    public static let gracePeriod = NotificationSubtype(rawValue: "GRACE_PERIOD")

    /// `PENDING`.
    public static let pending = NotificationSubtype(rawValue: "PENDING")

    /// `ACCEPTED`.
    public static let accepted = NotificationSubtype(rawValue: "ACCEPTED")

    /// `BILLING_RECOVERY`.
    public static let billingRecovery = NotificationSubtype(rawValue: "BILLING_RECOVERY")

    /// `PRODUCT_NOT_FOR_SALE`.
    public static let productNotForSale = NotificationSubtype(rawValue: "PRODUCT_NOT_FOR_SALE")

    /// `SUMMARY`.
    public static let summary = NotificationSubtype(rawValue: "SUMMARY")

    /// `FAILURE`.
    public static let failure = NotificationSubtype(rawValue: "FAILURE")

    /// `UNREPORTED`.
    public static let unreported = NotificationSubtype(rawValue: "UNREPORTED")

    /// `ACTIVE_TOKEN_REMINDER`.
    public static let activeTokenReminder = NotificationSubtype(rawValue: "ACTIVE_TOKEN_REMINDER")

    /// `CREATED`.
    public static let created = NotificationSubtype(rawValue: "CREATED")
}
