/// Whether the customer bought the product or has it through Family Sharing (`inAppOwnershipType`).
public struct InAppOwnershipType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PURCHASED`.
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")

    /// `FAMILY_SHARED`.
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")

    /// `ASSIGNED` (App Store Server API 1.22): the purchase was assigned to the customer, neither bought by them nor
    /// shared through Family Sharing. Any other value Apple adds is kept as sent (`rawValue`).
    public static let assigned = InAppOwnershipType(rawValue: "ASSIGNED")
}
