public import AppStoreJWS

/// Whether Look Up Order ID found the order (`status`).
public struct OrderLookupStatus: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// A valid order id (`0`).
    public static let valid = OrderLookupStatus(rawValue: 0)

    /// An invalid order id (`1`).
    public static let invalid = OrderLookupStatus(rawValue: 1)
}
