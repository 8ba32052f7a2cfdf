public import AppStoreJWS

public import struct Foundation.Date

/// The documented query filters of Get Transaction History (`TransactionHistoryRequest`). Every page of one history
/// is asked with the same filters, as Apple requires.
public struct TransactionHistoryFilter: Sendable, Hashable {
    /// Transactions purchased at or after this instant (`startDate`, milliseconds): Apple selects by purchase date.
    public var startDate: Date?
    /// Transactions purchased before this instant (`endDate`, milliseconds).
    public var endDate: Date?
    /// Only these products (`productId`, repeated).
    public var productIDs: [String]
    /// Only these product types (`productType`, repeated).
    public var productTypes: [ProductType]
    /// The order by modification date (`sort`); Apple's default is ascending.
    public var sort: HistorySortOrder?
    /// Only these subscription groups (`subscriptionGroupIdentifier`, repeated).
    public var subscriptionGroupIdentifiers: [String]
    /// Only purchased or only Family Shared (`inAppOwnershipType`).
    public var inAppOwnershipType: InAppOwnershipType?
    /// Only revoked (`true`) or only not revoked (`false`) transactions (`revoked`).
    public var revoked: Bool?

    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        productIDs: [String] = [],
        productTypes: [ProductType] = [],
        sort: HistorySortOrder? = nil,
        subscriptionGroupIdentifiers: [String] = [],
        inAppOwnershipType: InAppOwnershipType? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIDs = productIDs
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query items, in Apple's order.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidConfiguration`` for a date that is no whole number of
    ///   milliseconds since 1970 Apple could be sent (out of range, not finite): left out, the query would widen.
    func queryItems() throws(AppStoreServerAPIError) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        for (name, date) in [("startDate", self.startDate), ("endDate", self.endDate)] {
            guard let date else { continue }
            guard let milliseconds = Endpoint.milliseconds(date) else {
                throw AppStoreServerAPIError(.invalidConfiguration, "a transaction history \(name) is out of range")
            }
            items.append((name, milliseconds))
        }
        items += self.productIDs.map { ("productId", $0) }
        items += self.productTypes.map { ("productType", $0.rawValue) }
        if let sort { items.append(("sort", sort.rawValue)) }
        items += self.subscriptionGroupIdentifiers.map { ("subscriptionGroupIdentifier", $0) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType.rawValue)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }
}
