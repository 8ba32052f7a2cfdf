/// The answer of Look Up Order ID (`OrderLookupResponse`).
///
/// `Transaction` is `String` (the signed JWS as sent) from ``AppStoreServerAPIClient/lookUpOrderIDUnverified(_:)``,
/// and `JWSTransactionPayload` (verified) from ``AppStoreServerAPIClient/lookUpOrderID(_:)``.
public struct OrderLookupResponse<Transaction: Sendable & Hashable>: Sendable, Hashable {
    /// Whether the order id is valid (`status`). Not signed: grant from the verified transactions, not from this.
    public var status: OrderLookupStatus?
    /// The order's transactions (`signedTransactions`).
    public var transactions: [Transaction]

    public init(status: OrderLookupStatus? = nil, transactions: [Transaction] = []) {
        self.status = status
        self.transactions = transactions
    }

    enum CodingKeys: String, CodingKey {
        case status
        case transactions = "signedTransactions"
    }
}

extension OrderLookupResponse: Codable where Transaction: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.status = try container.decodeIfPresent(OrderLookupStatus.self, forKey: .status)
        self.transactions = try container.decodeIfPresent([Transaction].self, forKey: .transactions) ?? []
    }
}
