/// Why a transaction happened (`transactionReason`).
public struct TransactionReason: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PURCHASE`: the customer bought it.
    public static let purchase = TransactionReason(rawValue: "PURCHASE")

    /// `RENEWAL`: the App Store renewed a subscription.
    public static let renewal = TransactionReason(rawValue: "RENEWAL")
}
