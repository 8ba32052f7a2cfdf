/// Why a subscription expired (`expirationIntent`).
public struct ExpirationIntent: AppStoreEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 1: the customer cancelled.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)

    /// 2: a billing error.
    public static let billingError = ExpirationIntent(rawValue: 2)

    /// 3: the customer did not consent to a price increase.
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)

    /// 4: the product was not available at renewal.
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)

    /// 5: another reason.
    public static let other = ExpirationIntent(rawValue: 5)
}
