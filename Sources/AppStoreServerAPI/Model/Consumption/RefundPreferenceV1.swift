public import AppStoreJWS

/// The outcome you prefer for a refund request (`refundPreference`, Send Consumption Information V1: integer codes;
/// V2's ``RefundPreference`` names them).
public struct RefundPreferenceV1: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = RefundPreferenceV1(rawValue: 0)

    /// Prefer granting the refund (`1`).
    public static let preferGrant = RefundPreferenceV1(rawValue: 1)

    /// Prefer declining it (`2`).
    public static let preferDecline = RefundPreferenceV1(rawValue: 2)

    /// No preference (`3`).
    public static let noPreference = RefundPreferenceV1(rawValue: 3)
}
