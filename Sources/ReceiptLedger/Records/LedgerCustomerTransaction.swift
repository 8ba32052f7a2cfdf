/// One stored transaction of a ``LedgerCustomer``: its id, the date of its current version, and what the ledger
/// holds for serving Apple's signed value of it.
public struct LedgerCustomerTransaction: Sendable, Hashable {
    /// `transaction_id`.
    public var transactionIdentifier: String
    /// The current version's date (``LedgerTransaction/receiptCreationMilliseconds``: the receipt's creation date,
    /// or the signing date of signed data): the order in which the ledger learnt of changes.
    public var versionMilliseconds: Int64
    /// The original transaction id, the current version's source and key, and the JWS stored with it.
    public var signed: LedgerSignedTransaction

    /// Describes a stored transaction.
    public init(transactionIdentifier: String, versionMilliseconds: Int64, signed: LedgerSignedTransaction) {
        self.transactionIdentifier = transactionIdentifier
        self.versionMilliseconds = versionMilliseconds
        self.signed = signed
    }
}
