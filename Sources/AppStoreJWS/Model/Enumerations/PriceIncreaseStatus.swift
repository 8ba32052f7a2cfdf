/// Whether the customer responded to a price increase (`priceIncreaseStatus`).
public struct PriceIncreaseStatus: AppStoreEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 0: the customer has not responded (or the increase needs no consent).
    public static let notResponded = PriceIncreaseStatus(rawValue: 0)

    /// 1: the customer consented, or was notified of an increase that needs no consent.
    public static let accepted = PriceIncreaseStatus(rawValue: 1)
}
