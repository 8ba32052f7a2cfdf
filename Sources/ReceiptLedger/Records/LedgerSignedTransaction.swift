/// What the ledger holds of one transaction for serving Apple's signed value: its original transaction id, what
/// taught the ledger its current version, that version's key, and the JWS it came in (``Ledger/signedTransaction(environment:bundleIdentifier:transactionIdentifier:)``).
public struct LedgerSignedTransaction: Sendable, Hashable {
    /// `original_transaction_id`.
    public var originalTransactionIdentifier: String
    /// What taught the ledger the current version of the row.
    public var source: LedgerSource
    /// The current version's ``LedgerTransaction/receiptHash``: for signed data, `jws:` and the SHA-256 of its JWS.
    public var receiptHash: String
    /// The JWS stored with the row (``LedgerTransaction/signedJWS``).
    public var signedJWS: String?

    /// Describes a stored transaction.
    public init(originalTransactionIdentifier: String, source: LedgerSource, receiptHash: String, signedJWS: String?) {
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.source = source
        self.receiptHash = receiptHash
        self.signedJWS = signedJWS
    }

    /// The JWS of the row's current version: the stored JWS when the version came from signed data and the JWS is
    /// the one its key names. `nil` for a version a receipt carried (no JWS), and for a JWS left behind by a writer
    /// that does not keep them (a service older than schema version 7 sharing the database): the signature of what
    /// the row says, or nothing.
    public var currentJWS: String? {
        guard self.source != .receipt, let jws = self.signedJWS,
            self.receiptHash == LedgerTransaction.signedDataHash(of: jws)
        else { return nil }
        return jws
    }
}
