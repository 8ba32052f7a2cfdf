public import AppStoreJWS

/// Whether the app delivered an In-App Purchase that works (`deliveryStatus` of Send Consumption Information, V2).
public struct ConsumptionDeliveryStatus: APIEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Delivered and working (`DELIVERED`).
    public static let delivered = ConsumptionDeliveryStatus(rawValue: "DELIVERED")

    /// Not delivered: a quality issue (`UNDELIVERED_QUALITY_ISSUE`).
    public static let undeliveredQualityIssue = ConsumptionDeliveryStatus(rawValue: "UNDELIVERED_QUALITY_ISSUE")

    /// The wrong item delivered (`UNDELIVERED_WRONG_ITEM`).
    public static let undeliveredWrongItem = ConsumptionDeliveryStatus(rawValue: "UNDELIVERED_WRONG_ITEM")

    /// Not delivered: a server outage (`UNDELIVERED_SERVER_OUTAGE`).
    public static let undeliveredServerOutage = ConsumptionDeliveryStatus(rawValue: "UNDELIVERED_SERVER_OUTAGE")

    /// Not delivered for another reason (`UNDELIVERED_OTHER`).
    public static let undeliveredOther = ConsumptionDeliveryStatus(rawValue: "UNDELIVERED_OTHER")
}
