/// The newest transaction and renewal info of one subscription (`LastTransactionsItem`).
public struct LastTransaction<Transaction: Sendable & Hashable, RenewalInfo: Sendable & Hashable>: Sendable, Hashable {
    /// `status`. Not signed: when access depends on it, derive it from the verified transaction's `expiresDate` and
    /// `revocationDate` instead.
    public var status: SubscriptionStatus?
    /// `originalTransactionId`. Not signed; the verified form is checked to equal the signed transaction's and
    /// renewal info's.
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
