/// A transaction's product type (`type`).
public struct TransactionType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `Auto-Renewable Subscription`.
    public static let autoRenewableSubscription = TransactionType(rawValue: "Auto-Renewable Subscription")

    /// `Non-Consumable`.
    public static let nonConsumable = TransactionType(rawValue: "Non-Consumable")

    /// `Consumable`.
    public static let consumable = TransactionType(rawValue: "Consumable")

    /// `Non-Renewing Subscription`.
    public static let nonRenewingSubscription = TransactionType(rawValue: "Non-Renewing Subscription")
}
