public import AppStoreJWS

/// The age of the customer's account (`accountTenure`, Send Consumption Information V1).
public struct AccountTenure: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = AccountTenure(rawValue: 0)

    /// 0–3 days (`1`).
    public static let upToThreeDays = AccountTenure(rawValue: 1)

    /// 3–10 days (`2`).
    public static let threeToTenDays = AccountTenure(rawValue: 2)

    /// 10–30 days (`3`).
    public static let tenToThirtyDays = AccountTenure(rawValue: 3)

    /// 30–90 days (`4`).
    public static let thirtyToNinetyDays = AccountTenure(rawValue: 4)

    /// 90–180 days (`5`).
    public static let ninetyTo180Days = AccountTenure(rawValue: 5)

    /// 180–365 days (`6`).
    public static let from180To365Days = AccountTenure(rawValue: 6)

    /// Over 365 days (`7`).
    public static let over365Days = AccountTenure(rawValue: 7)
}
