import AppStorePKI
import AppStoreJWS
import Crypto
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

/// App Store signed data as ledger rows in verifyReceipt's shapes, so a subscription known from notifications (or
/// the App Store Server API) is served by `/verifyReceipt` like one known from receipts (`latest_receipt_info`,
/// `pending_renewal_info`). The keys and their formats are the payloads' tables
/// (`JWSTransactionPayload.latestReceiptInfoFields`, `JWSRenewalInfoPayload.pendingRenewalInfoFields`).
enum JWSLedgerRows {
    /// Marks a transaction row that came from signed data, not a receipt: its "receipt hash" is `jws:` and the
    /// SHA-256 of the JWS. Rows compete with receipts' by signing date (a refund's revocation, signed later, wins).
    static let hashPrefix = "jws:"

    /// The `latest_receipt_info` row of a verified transaction; `nil` without a transaction id.
    static func transaction(
        _ payload: JWSTransactionPayload,
        jws: String,
        environment: AppStoreEnvironment,
        source: LedgerSource
    ) -> LedgerTransaction? {
        guard let transactionID = payload.transactionID, !transactionID.isEmpty else { return nil }
        return LedgerTransaction(
            environment: environment,
            bundleIdentifier: payload.bundleIdentifier ?? "",
            transactionIdentifier: transactionID,
            originalTransactionIdentifier: payload.ledgerOriginalTransactionID ?? transactionID,
            productIdentifier: payload.productID ?? "",
            purchaseDateMilliseconds: payload.purchaseDate?.date.epochMilliseconds,
            expiresDateMilliseconds: payload.expiresDate?.date.epochMilliseconds,
            cancellationDateMilliseconds: payload.revocationDate?.date.epochMilliseconds,
            receiptHash: Self.hashPrefix + HexDigits.string(SHA256.hash(data: Array(jws.utf8))),
            receiptCreationMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: payload.latestReceiptInfoJSON(),
            source: source
        )
    }

    /// The `pending_renewal_info` element of verified renewal info; `nil` without an original transaction id.
    static func renewalInfo(
        _ payload: JWSRenewalInfoPayload,
        bundleIdentifier: String,
        environment: AppStoreEnvironment,
        source: LedgerSource
    ) -> LedgerRenewalInfo? {
        guard let original = payload.originalTransactionID, !original.isEmpty else { return nil }
        return LedgerRenewalInfo(
            environment: environment,
            bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifier: original,
            productIdentifier: payload.autoRenewProductID ?? payload.productID ?? "",
            updatedMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: payload.pendingRenewalInfoJSON(),
            source: source
        )
    }
}
