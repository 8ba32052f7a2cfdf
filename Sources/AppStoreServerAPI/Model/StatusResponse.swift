public import AppStoreJWS

/// The answer of Get All Subscription Statuses (`StatusResponse`).
///
/// `Transaction` and `RenewalInfo` are `String` (the signed JWS as sent) from
/// ``AppStoreServerAPIClient/allSubscriptionStatusesUnverified(transactionID:status:)``, and
/// `JWSTransactionPayload` / `JWSRenewalInfoPayload` (verified) from
/// ``AppStoreServerAPIClient/allSubscriptionStatuses(transactionID:status:)``.
public struct StatusResponse<Transaction: Sendable & Hashable, RenewalInfo: Sendable & Hashable>: Sendable, Hashable {
    /// `environment`, kept as sent. Not signed; when present in a verified answer, the configuration's environment.
    public var environment: AppStoreEnvironment?
    /// `bundleId`. Not signed; when present in a verified answer, the configuration's bundle id.
    public var bundleIdentifier: String?
    /// `appAppleId`. Not signed and not checked.
    public var appAppleID: Int64?
    /// One entry per subscription group (`data`).
    public var data: [SubscriptionGroupStatus<Transaction, RenewalInfo>]

    public init(
        environment: AppStoreEnvironment? = nil,
        bundleIdentifier: String? = nil,
        appAppleID: Int64? = nil,
        data: [SubscriptionGroupStatus<Transaction, RenewalInfo>] = []
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.appAppleID = appAppleID
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case environment
        case bundleIdentifier = "bundleId"
        case appAppleID = "appAppleId"
        case data
    }
}

extension StatusResponse: Codable where Transaction: Codable, RenewalInfo: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.environment = try container.decodeIfPresent(AppStoreEnvironment.self, forKey: .environment)
        self.bundleIdentifier = try container.decodeIfPresent(String.self, forKey: .bundleIdentifier)
        self.appAppleID = try container.decodeIfPresent(Int64.self, forKey: .appAppleID)
        self.data =
            try container.decodeIfPresent([SubscriptionGroupStatus<Transaction, RenewalInfo>].self, forKey: .data) ?? []
    }
}

extension StatusResponse {
    /// The same answer with each transaction and renewal info replaced.
    func mapping<OtherTransaction, OtherRenewalInfo>(
        transaction: (Transaction) -> OtherTransaction,
        renewalInfo: (RenewalInfo) -> OtherRenewalInfo
    ) -> StatusResponse<OtherTransaction, OtherRenewalInfo> {
        StatusResponse<OtherTransaction, OtherRenewalInfo>(
            environment: self.environment,
            bundleIdentifier: self.bundleIdentifier,
            appAppleID: self.appAppleID,
            data: self.data.map { group in
                SubscriptionGroupStatus(
                    subscriptionGroupIdentifier: group.subscriptionGroupIdentifier,
                    lastTransactions: group.lastTransactions.map { item in
                        LastTransaction(
                            status: item.status,
                            originalTransactionID: item.originalTransactionID,
                            transaction: item.transaction.map(transaction),
                            renewalInfo: item.renewalInfo.map(renewalInfo)
                        )
                    }
                )
            }
        )
    }
}
