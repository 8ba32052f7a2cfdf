/// The subscriptions of one subscription group in a ``StatusResponse`` (`SubscriptionGroupIdentifierItem`).
public struct SubscriptionGroupStatus<Transaction: Sendable & Hashable, RenewalInfo: Sendable & Hashable>: Sendable,
    Hashable
{
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// The newest transaction of each subscription in the group (`lastTransactions`).
    public var lastTransactions: [LastTransaction<Transaction, RenewalInfo>]

    public init(
        subscriptionGroupIdentifier: String? = nil,
        lastTransactions: [LastTransaction<Transaction, RenewalInfo>] = []
    ) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }

    enum CodingKeys: String, CodingKey {
        case subscriptionGroupIdentifier, lastTransactions
    }
}

extension SubscriptionGroupStatus: Codable where Transaction: Codable, RenewalInfo: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.subscriptionGroupIdentifier = try container.decodeIfPresent(
            String.self,
            forKey: .subscriptionGroupIdentifier
        )
        self.lastTransactions =
            try container.decodeIfPresent([LastTransaction<Transaction, RenewalInfo>].self, forKey: .lastTransactions)
            ?? []
    }
}
