public import AppStoreJWS

/// Where the customer consumed the In-App Purchase (`platform`, Send Consumption Information V1).
public struct ConsumptionPlatform: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = ConsumptionPlatform(rawValue: 0)

    /// An Apple platform (`1`).
    public static let apple = ConsumptionPlatform(rawValue: 1)

    /// Another platform (`2`).
    public static let nonApple = ConsumptionPlatform(rawValue: 2)
}
