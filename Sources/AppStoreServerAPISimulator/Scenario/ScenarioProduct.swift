/// A product of a scenario's app, as App Store Connect defines it.
public struct ScenarioProduct: Sendable, Hashable {
    /// What kind of in-app purchase it is (the transaction's `type`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case autoRenewable = "auto_renewable"
        case nonConsumable = "non_consumable"
        case consumable
        case nonRenewing = "non_renewing"

        /// Apple's `type` value for it.
        var transactionType: String {
            switch self {
            case .autoRenewable: return "Auto-Renewable Subscription"
            case .nonConsumable: return "Non-Consumable"
            case .consumable: return "Consumable"
            case .nonRenewing: return "Non-Renewing Subscription"
            }
        }
    }

    public var productID: String
    public var bundleIdentifier: String
    public var kind: Kind
    /// The subscription group's identifier (`subscriptionGroupIdentifier`); auto-renewable subscriptions only.
    public var subscriptionGroup: String?
    /// How long one period lasts (auto-renewable and non-renewing subscriptions).
    public var period: ScenarioPeriod?
    /// Its level in the group: 1 is the highest (an upgrade moves to a lower number).
    public var level: Int
    /// The price in milliunits of ``currency`` (9990 is 9.99).
    public var price: Int64
    public var currency: String

    public init(
        productID: String, bundleIdentifier: String, kind: Kind, subscriptionGroup: String? = nil,
        period: ScenarioPeriod? = nil, level: Int = 1, price: Int64 = 990, currency: String = "USD"
    ) {
        self.productID = productID
        self.bundleIdentifier = bundleIdentifier
        self.kind = kind
        self.subscriptionGroup = subscriptionGroup
        self.period = period
        self.level = level
        self.price = price
        self.currency = currency
    }
}
