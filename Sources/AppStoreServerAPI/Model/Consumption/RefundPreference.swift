public import AppStoreJWS

/// The outcome you prefer for a refund request (`refundPreference` of Send Consumption Information, V2).
public struct RefundPreference: APIEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Decline the refund (`DECLINE`).
    public static let decline = RefundPreference(rawValue: "DECLINE")

    /// Grant a full refund (`GRANT_FULL`).
    public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")

    /// Grant a prorated refund (`GRANT_PRORATED`).
    public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")
}
