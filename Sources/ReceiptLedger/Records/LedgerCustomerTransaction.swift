/// One stored transaction of a ``LedgerCustomer``: its id, the date of its current version, its change number, and
/// what the ledger holds for serving Apple's signed value of it.
public struct LedgerCustomerTransaction: Sendable, Hashable {
    /// `transaction_id`.
    public var transactionIdentifier: String
    /// The current version's date (``LedgerTransaction/receiptCreationMilliseconds``: the receipt's creation date,
    /// or the signing date of signed data).
    public var versionMilliseconds: Int64
    /// When the ledger learnt the row's content, as a number that only grows (schema version 8): a row inserted, or
    /// given different content, takes the next; a version that changes nothing — Apple signing the same transaction
    /// again — keeps it. The order of the App Store Server API mirror's history pages, so that a page walk neither
    /// repeats what a refresh signed again nor skips what arrived late. Rows stored before version 8 are numbered by
    /// version date.
    public var changeNumber: Int64
    /// The original transaction id, the current version's source and key, and the JWS stored with it.
    public var signed: LedgerSignedTransaction

    /// Describes a stored transaction.
    public init(
        transactionIdentifier: String, versionMilliseconds: Int64, changeNumber: Int64, signed: LedgerSignedTransaction
    ) {
        self.transactionIdentifier = transactionIdentifier
        self.versionMilliseconds = versionMilliseconds
        self.changeNumber = changeNumber
        self.signed = signed
    }
}
