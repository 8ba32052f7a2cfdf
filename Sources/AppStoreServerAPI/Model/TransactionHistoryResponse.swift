public import AppStoreJWS

/// One page of Get Transaction History (`HistoryResponse`).
///
/// `Transaction` is `String` — the signed JWS as Apple sent it — from calls whose name ends in `Unverified`, and
/// `JWSTransactionPayload` (verified) from the others.
public struct TransactionHistoryResponse<Transaction: Sendable & Hashable>: Sendable, Hashable {
    /// The token for the next page (`revision`). Not signed.
    public var revision: String?
    /// Whether more pages follow (`hasMore`). Not signed: a connection that can alter it can cut a history short,
    /// though not add to it.
    public var hasMore: Bool
    /// `bundleId`. Not signed; when present in a verified answer, the configuration's bundle id.
    public var bundleIdentifier: String?
    /// `appAppleId`. Not signed and not checked.
    public var appAppleID: Int64?
    /// `environment`, kept as sent when it is not one this version knows. Not signed; when present in a verified
    /// answer, the configuration's environment.
    public var environment: AppStoreEnvironment?
    /// The transactions (`signedTransactions`).
    public var transactions: [Transaction]

    public init(
        revision: String? = nil,
        hasMore: Bool = false,
        bundleIdentifier: String? = nil,
        appAppleID: Int64? = nil,
        environment: AppStoreEnvironment? = nil,
        transactions: [Transaction] = []
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleIdentifier = bundleIdentifier
        self.appAppleID = appAppleID
        self.environment = environment
        self.transactions = transactions
    }

    enum CodingKeys: String, CodingKey {
        case revision, hasMore
        case bundleIdentifier = "bundleId"
        case appAppleID = "appAppleId"
        case environment
        case transactions = "signedTransactions"
    }

    /// The same page with each transaction replaced.
    func replacing<Other>(_ transactions: [Other]) -> TransactionHistoryResponse<Other> {
        TransactionHistoryResponse<Other>(
            revision: self.revision,
            hasMore: self.hasMore,
            bundleIdentifier: self.bundleIdentifier,
            appAppleID: self.appAppleID,
            environment: self.environment,
            transactions: transactions
        )
    }
}

extension TransactionHistoryResponse: Codable where Transaction: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.revision = try container.decodeIfPresent(String.self, forKey: .revision)
        self.hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false
        self.bundleIdentifier = try container.decodeIfPresent(String.self, forKey: .bundleIdentifier)
        self.appAppleID = try container.decodeIfPresent(Int64.self, forKey: .appAppleID)
        self.environment = try container.decodeIfPresent(AppStoreEnvironment.self, forKey: .environment)
        self.transactions = try container.decodeIfPresent([Transaction].self, forKey: .transactions) ?? []
    }
}
