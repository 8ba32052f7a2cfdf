/// The answer of Get Transaction Info (`TransactionInfoResponse`), as sent: the signed transaction unverified.
public struct TransactionInfoResponse: Sendable, Hashable, Codable {
    /// The signed transaction (`signedTransactionInfo`), not verified.
    public var signedTransactionInfo: String?

    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}
