/// One page of Get Refund History (`RefundHistoryResponse`).
///
/// `Transaction` is `String` (the signed JWS as sent) from calls whose name ends in `Unverified`, and
/// `JWSTransactionPayload` (verified) from the others.
public struct RefundHistoryResponse<Transaction: Sendable & Hashable>: Sendable, Hashable {
    /// The refunded transactions (`signedTransactions`).
    public var transactions: [Transaction]
    /// The token for the next page (`revision`).
    public var revision: String?
    /// Whether more pages follow (`hasMore`).
    public var hasMore: Bool

    public init(transactions: [Transaction] = [], revision: String? = nil, hasMore: Bool = false) {
        self.transactions = transactions
        self.revision = revision
        self.hasMore = hasMore
    }

    enum CodingKeys: String, CodingKey {
        case transactions = "signedTransactions"
        case revision, hasMore
    }
}

extension RefundHistoryResponse: Codable where Transaction: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.transactions = try container.decodeIfPresent([Transaction].self, forKey: .transactions) ?? []
        self.revision = try container.decodeIfPresent(String.self, forKey: .revision)
        self.hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false
    }
}
