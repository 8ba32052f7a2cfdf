/// Why Apple refunded or revoked a transaction (`revocationReason`).
public struct RevocationReason: AppStoreEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 0: another reason (an accidental purchase, say).
    public static let other = RevocationReason(rawValue: 0)

    /// 1: an actual or perceived issue within the app.
    public static let appIssue = RevocationReason(rawValue: 1)
}
