/// Whether the customer bought the product or has it through Family Sharing (`inAppOwnershipType`).
public struct InAppOwnershipType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PURCHASED`.
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")

    /// `FAMILY_SHARED`.
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")
}
