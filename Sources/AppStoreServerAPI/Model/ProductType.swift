public import AppStoreJWS

/// The `productType` filter of Get Transaction History.
public struct ProductType: APIEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `AUTO_RENEWABLE`.
    public static let autoRenewable = ProductType(rawValue: "AUTO_RENEWABLE")

    /// `NON_RENEWABLE`.
    public static let nonRenewable = ProductType(rawValue: "NON_RENEWABLE")

    /// `CONSUMABLE`.
    public static let consumable = ProductType(rawValue: "CONSUMABLE")

    /// `NON_CONSUMABLE`.
    public static let nonConsumable = ProductType(rawValue: "NON_CONSUMABLE")
}
