public import AppStoreJWS

/// The status of the customer's account (`userStatus`, Send Consumption Information V1).
public struct UserStatus: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = UserStatus(rawValue: 0)

    /// Active (`1`).
    public static let active = UserStatus(rawValue: 1)

    /// Suspended (`2`).
    public static let suspended = UserStatus(rawValue: 2)

    /// Terminated (`3`).
    public static let terminated = UserStatus(rawValue: 3)

    /// Limited access (`4`).
    public static let limitedAccess = UserStatus(rawValue: 4)
}
