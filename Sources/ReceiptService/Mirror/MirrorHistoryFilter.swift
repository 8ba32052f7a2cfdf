import AppStoreJWS
import AppStoreServerAPI

/// What a Get Transaction History v2 request selects, read from its query as Apple documents the parameters
/// ("Get Transaction History", App Store Server API): `sort` (`ASCENDING`, the default, or `DESCENDING`),
/// `startDate` and `endDate` (milliseconds; purchase dates from the start, before the end), `productId` and
/// `productType` (several allowed), `subscriptionGroupIdentifier` (several), `inAppOwnershipType` and `revoked`.
/// A value Apple would refuse is refused with Apple's error.
struct MirrorHistoryFilter: Sendable {
    var descending = false
    var startDate: Int64?
    var endDate: Int64?
    var productIdentifiers: Set<String> = []
    var types: Set<TransactionType> = []
    var subscriptionGroups: Set<String> = []
    var ownership: InAppOwnershipType?
    var revoked: Bool?

    /// Apple's `productType` values and the transaction `type` each selects.
    static let productTypes: [String: TransactionType] = [
        "AUTO_RENEWABLE": .autoRenewableSubscription,
        "NON_RENEWABLE": .nonRenewingSubscription,
        "CONSUMABLE": .consumable,
        "NON_CONSUMABLE": .nonConsumable,
    ]

    init(query: [String: [String]]) throws(MirrorRefusal) {
        switch query["sort"] ?? [] {
        case [], ["ASCENDING"]: self.descending = false
        case ["DESCENDING"]: self.descending = true
        default: throw MirrorRefusal(.invalidSort)
        }
        if let text = try Self.single(query, "startDate", .invalidStartDate) {
            guard let value = AppStoreMirror.digits(text) else { throw MirrorRefusal(.invalidStartDate) }
            self.startDate = value
        }
        if let text = try Self.single(query, "endDate", .invalidEndDate) {
            guard let value = AppStoreMirror.digits(text) else { throw MirrorRefusal(.invalidEndDate) }
            self.endDate = value
        }
        if let start = self.startDate, let end = self.endDate, start >= end {
            throw MirrorRefusal(.startDateAfterEndDate)
        }
        for name in query["productType"] ?? [] {
            guard let type = Self.productTypes[name] else { throw MirrorRefusal(.invalidProductType) }
            self.types.insert(type)
        }
        self.productIdentifiers = Set(query["productId"] ?? [])
        self.subscriptionGroups = Set(query["subscriptionGroupIdentifier"] ?? [])
        if let text = try Self.single(query, "inAppOwnershipType", .invalidInAppOwnershipType) {
            let ownership = InAppOwnershipType(rawValue: text)
            guard [InAppOwnershipType.purchased, .familyShared, .assigned].contains(ownership) else {
                throw MirrorRefusal(.invalidInAppOwnershipType)
            }
            self.ownership = ownership
        }
        switch try Self.single(query, "revoked", .invalidRevoked) {
        case nil: break
        case "true": self.revoked = true
        case "false": self.revoked = false
        case _?: throw MirrorRefusal(.invalidRevoked)
        }
    }

    /// A parameter given at most once; twice is refused as a bad value.
    private static func single(
        _ query: [String: [String]], _ name: String, _ refusal: APIErrorAnswer
    ) throws(MirrorRefusal) -> String? {
        guard let values = query[name] else { return nil }
        guard values.count == 1, let value = values.first else { throw MirrorRefusal(refusal) }
        return value
    }

    /// Whether `transaction` is selected.
    func admits(_ transaction: MirrorTransaction) -> Bool {
        let payload = transaction.payload
        let purchased = transaction.purchaseMilliseconds
        if let startDate = self.startDate, purchased < startDate { return false }
        if let endDate = self.endDate, purchased >= endDate { return false }
        if !self.productIdentifiers.isEmpty, !self.productIdentifiers.contains(payload.productID ?? "") { return false }
        if !self.types.isEmpty, !self.types.contains(where: { $0 == payload.type }) { return false }
        if !self.subscriptionGroups.isEmpty,
            !self.subscriptionGroups.contains(payload.subscriptionGroupIdentifier ?? "")
        {
            return false
        }
        if let ownership = self.ownership, payload.inAppOwnershipType != ownership { return false }
        if let revoked = self.revoked, (transaction.revocationMilliseconds != nil) != revoked { return false }
        return true
    }
}
