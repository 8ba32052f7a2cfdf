public import AppStoreJWS

/// Whether the app delivered an In-App Purchase that works (`deliveryStatus`, Send Consumption Information V1: integer
/// codes; V2's ``ConsumptionDeliveryStatus`` names them).
public struct DeliveryStatusV1: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Delivered and working (`0`).
    public static let deliveredAndWorking = DeliveryStatusV1(rawValue: 0)

    /// Not delivered: a quality issue (`1`).
    public static let notDeliveredQualityIssue = DeliveryStatusV1(rawValue: 1)

    /// The wrong item delivered (`2`).
    public static let deliveredWrongItem = DeliveryStatusV1(rawValue: 2)

    /// Not delivered: a server outage (`3`).
    public static let notDeliveredServerOutage = DeliveryStatusV1(rawValue: 3)

    /// Not delivered: an in-game currency change (`4`).
    public static let notDeliveredCurrencyChange = DeliveryStatusV1(rawValue: 4)

    /// Not delivered for another reason (`5`).
    public static let notDeliveredOther = DeliveryStatusV1(rawValue: 5)
}
