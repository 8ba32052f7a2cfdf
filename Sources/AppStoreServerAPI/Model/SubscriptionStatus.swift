public import AppStoreJWS

/// The status of an auto-renewable subscription (`status`), also the `status` filter of Get All Subscription Statuses.
public struct SubscriptionStatus: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Active (`1`).
    public static let active = SubscriptionStatus(rawValue: 1)

    /// Expired (`2`).
    public static let expired = SubscriptionStatus(rawValue: 2)

    /// In the billing retry period (`3`).
    public static let billingRetry = SubscriptionStatus(rawValue: 3)

    /// In the billing grace period (`4`).
    public static let billingGracePeriod = SubscriptionStatus(rawValue: 4)

    /// Revoked (`5`).
    public static let revoked = SubscriptionStatus(rawValue: 5)
}
