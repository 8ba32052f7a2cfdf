public import AppStoreJWS

/// Why a subscription's renewal date is extended (`extendReasonCode`).
public struct ExtendReasonCode: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = ExtendReasonCode(rawValue: 0)

    /// Customer satisfaction (`1`).
    public static let customerSatisfaction = ExtendReasonCode(rawValue: 1)

    /// Other (`2`).
    public static let other = ExtendReasonCode(rawValue: 2)

    /// A service issue or outage (`3`).
    public static let serviceIssueOrOutage = ExtendReasonCode(rawValue: 3)
}
