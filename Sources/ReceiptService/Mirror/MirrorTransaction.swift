import AppStoreJWS
import ReceiptLedger

/// A customer's transaction as the mirror serves it: the JWS Apple signed for its current version, the payload it
/// carries (read from the JWS: the ledger verified it when it was learnt), and the ledger's order of changes.
struct MirrorTransaction: Sendable {
    let jws: String
    let payload: JWSTransactionPayload
    let transactionIdentifier: String
    /// When the ledger learnt the content it holds (its change number): the order `revision` pages walk.
    let changeNumber: Int64

    /// The position in the order of changes: the change number, then the transaction id.
    var position: MirrorPosition { MirrorPosition(number: self.changeNumber, identifier: self.transactionIdentifier) }

    /// `purchaseDate`, in milliseconds.
    var purchaseMilliseconds: Int64 { self.payload.fields.integer("purchaseDate") ?? 0 }

    /// `revocationDate`, in milliseconds, when the transaction was refunded or revoked.
    var revocationMilliseconds: Int64? { self.payload.fields.integer("revocationDate") }

    /// Reads the customer's stored transaction, or `nil` when the ledger holds no JWS of its current version.
    init?(_ stored: LedgerCustomerTransaction) throws(JWSError) {
        guard let jws = stored.signed.currentJWS else { return nil }
        self.jws = jws
        self.payload = try JWSTransactionPayload(fields: try CompactJWS.payload(of: jws.utf8))
        self.transactionIdentifier = stored.transactionIdentifier
        self.changeNumber = stored.changeNumber
    }
}
