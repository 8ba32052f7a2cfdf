/// Whether a subscription renews (`autoRenewStatus`).
public struct AutoRenewStatus: AppStoreEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// 0: automatic renewal is off.
    public static let off = AutoRenewStatus(rawValue: 0)

    /// 1: automatic renewal is on.
    public static let on = AutoRenewStatus(rawValue: 1)
}
