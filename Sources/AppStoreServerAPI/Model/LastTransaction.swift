/// The newest transaction and renewal info of one subscription (`LastTransactionsItem`).
public struct LastTransaction<Transaction: Sendable & Hashable, RenewalInfo: Sendable & Hashable>: Sendable, Hashable {
    /// `status`.
    public var status: SubscriptionStatus?
    /// `originalTransactionId`.
    public var originalTransactionID: String?
    /// The transaction (`signedTransactionInfo`).
    public var transaction: Transaction?
    /// The renewal info (`signedRenewalInfo`).
    public var renewalInfo: RenewalInfo?

    public init(
        status: SubscriptionStatus? = nil,
        originalTransactionID: String? = nil,
        transaction: Transaction? = nil,
        renewalInfo: RenewalInfo? = nil
    ) {
        self.status = status
        self.originalTransactionID = originalTransactionID
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }

    enum CodingKeys: String, CodingKey {
        case status
        case originalTransactionID = "originalTransactionId"
        case transaction = "signedTransactionInfo"
        case renewalInfo = "signedRenewalInfo"
    }
}

extension LastTransaction: Codable where Transaction: Codable, RenewalInfo: Codable {}
