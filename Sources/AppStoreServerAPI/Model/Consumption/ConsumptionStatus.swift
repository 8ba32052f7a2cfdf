public import AppStoreJWS

/// How much of the In-App Purchase the customer consumed (`consumptionStatus`, Send Consumption Information V1).
public struct ConsumptionStatus: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = ConsumptionStatus(rawValue: 0)

    /// Not consumed (`1`).
    public static let notConsumed = ConsumptionStatus(rawValue: 1)

    /// Partially consumed (`2`).
    public static let partiallyConsumed = ConsumptionStatus(rawValue: 2)

    /// Fully consumed (`3`).
    public static let fullyConsumed = ConsumptionStatus(rawValue: 3)
}
