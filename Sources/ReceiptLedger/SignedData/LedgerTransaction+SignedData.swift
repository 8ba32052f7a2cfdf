public import AppStoreJWS
public import AppStorePKI
import Crypto
import ReceiptKit
import _ReceiptKitShared

extension LedgerTransaction {
    /// Marks a transaction row that came from signed data, not a receipt: its "receipt hash" is `jws:` and the
    /// SHA-256 of the JWS. Rows compete with receipts' by signing date (a refund's revocation, signed later, wins).
    public static let signedDataHashPrefix = "jws:"

    /// The ``receiptHash`` of a row learnt from `jws`: ``signedDataHashPrefix`` and the SHA-256 of the JWS, in hex.
    public static func signedDataHash(of jws: String) -> String {
        Self.signedDataHashPrefix + HexDigits.string(SHA256.hash(data: Array(jws.utf8)))
    }

    /// The `latest_receipt_info` row of a verified StoreKit 2 transaction, so a purchase known from a notification
    /// or the App Store Server API is served by `/verifyReceipt` like one known from a receipt
    /// (``LedgerReceipt/transactions``). The keys and their formats are `JWSTransactionPayload`'s
    /// `latest_receipt_info` table. `nil` without a transaction id.
    ///
    /// `jws` is kept as the row's ``signedJWS`` (and hashed into its ``receiptHash``).
    ///
    /// Build it only from a payload whose signature verified: the ledger believes what it is given.
    public init?(
        verified payload: JWSTransactionPayload,
        jws: String,
        environment: AppStoreEnvironment,
        source: LedgerSource
    ) {
        guard let transactionID = payload.transactionID, !transactionID.isEmpty else { return nil }
        self.init(
            environment: environment,
            bundleIdentifier: payload.bundleIdentifier ?? "",
            transactionIdentifier: transactionID,
            originalTransactionIdentifier: payload.ledgerOriginalTransactionID ?? transactionID,
            productIdentifier: payload.productID ?? "",
            purchaseDateMilliseconds: payload.purchaseDate?.date.epochMilliseconds,
            expiresDateMilliseconds: payload.expiresDate?.date.epochMilliseconds,
            cancellationDateMilliseconds: payload.revocationDate?.date.epochMilliseconds,
            receiptHash: Self.signedDataHash(of: jws),
            receiptCreationMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: payload.latestReceiptInfoJSON(),
            source: source,
            signedJWS: jws
        )
    }
}
