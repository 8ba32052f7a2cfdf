import AppStoreJWS
import Crypto
import struct Foundation.Date
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

/// App Store signed data as ledger rows in verifyReceipt's shapes, so a subscription known from notifications is
/// served by `/verifyReceipt` like one known from receipts (`latest_receipt_info`, `pending_renewal_info`).
enum JWSLedgerRows {
    /// Marks a transaction row that came from signed data, not a receipt: its "receipt hash" is `jws:` and the
    /// SHA-256 of the JWS. Rows compete with receipts' by signing date (a refund's revocation, signed later, wins).
    static let hashPrefix = "jws:"

    /// The `in_app` row of a verified transaction; `nil` without a transaction id.
    /// Mapping: `revocationDate` → `cancellation_date`; introductory offers (`offerType` 1) → `is_trial_period`
    /// (free trial) or `is_in_intro_offer_period`; promotional offers (2) → `promotional_offer_id`.
    static func transaction(
        _ payload: JWSTransactionPayload,
        jws: String,
        environment: LedgerEnvironment
    ) -> LedgerTransaction? {
        guard let transactionID = payload.transactionID, !transactionID.isEmpty else { return nil }
        let isSubscription = payload.expiresDate != nil
        let introductory = payload.offerType == 1
        let freeTrial = payload.offerDiscountType == "FREE_TRIAL"
        let purchase = InAppPurchase(
            quantity: payload.quantity,
            productIdentifier: payload.productID,
            transactionIdentifier: transactionID,
            purchaseDate: payload.purchaseDate?.date,
            originalTransactionIdentifier: payload.originalTransactionID,
            originalPurchaseDate: payload.originalPurchaseDate?.date,
            expiresDate: payload.expiresDate?.date,
            webOrderLineItemIdentifier: payload.webOrderLineItemID.flatMap { Int64($0) },
            cancellationDate: payload.revocationDate?.date,
            isTrialPeriod: introductory ? freeTrial : (isSubscription ? false : nil),
            isInIntroOfferPeriod: introductory ? !freeTrial : (isSubscription ? false : nil),
            promotionalOfferIdentifier: payload.offerType == 2 ? payload.offerIdentifier : nil
        )
        var json = JSONWriter(capacity: 640)
        purchase.write(to: &json)
        let original = payload.originalTransactionID.flatMap { $0.isEmpty ? nil : $0 } ?? transactionID
        return LedgerTransaction(
            environment: environment,
            bundleIdentifier: payload.bundleIdentifier ?? "",
            transactionIdentifier: transactionID,
            originalTransactionIdentifier: original,
            productIdentifier: payload.productID ?? "",
            purchaseDateMilliseconds: purchase.purchaseDate?.epochMilliseconds,
            expiresDateMilliseconds: purchase.expiresDate?.epochMilliseconds,
            cancellationDateMilliseconds: purchase.cancellationDate?.epochMilliseconds,
            receiptHash: Self.hashPrefix + HexDigits.string(SHA256.hash(data: Array(jws.utf8))),
            receiptCreationMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: json.bytes
        )
    }

    /// The `pending_renewal_info` element of verified renewal info; `nil` without an original transaction id.
    static func renewalInfo(
        _ payload: JWSRenewalInfoPayload,
        bundleIdentifier: String,
        environment: LedgerEnvironment
    ) -> LedgerRenewalInfo? {
        guard let original = payload.originalTransactionID, !original.isEmpty else { return nil }
        var json = JSONWriter(capacity: 512)
        json.beginObject()  // keys in byte order, as the rest of the response
        if let value = payload.autoRenewProductID { json.key("auto_renew_product_id"); json.string(value) }
        if let value = payload.autoRenewStatus { json.key("auto_renew_status"); json.integerString(value) }
        if let value = payload.expirationIntent { json.key("expiration_intent"); json.integerString(value) }
        VerifyReceiptDateFormat.write(payload.gracePeriodExpiresDate?.date, key: "grace_period_expires_date", to: &json)
        if let value = payload.isInBillingRetryPeriod { json.key("is_in_billing_retry_period"); json.literal(value ? "\"1\"" : "\"0\"") }
        if payload.offerType == 3, let value = payload.offerIdentifier { json.key("offer_code_ref_name"); json.string(value) }
        json.key("original_transaction_id")
        json.string(original)
        if let value = payload.priceIncreaseStatus { json.key("price_increase_status"); json.integerString(value) }
        if let value = payload.productID { json.key("product_id"); json.string(value) }
        if payload.offerType == 2, let value = payload.offerIdentifier { json.key("promotional_offer_id"); json.string(value) }
        json.endObject()
        return LedgerRenewalInfo(
            environment: environment,
            bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifier: original,
            productIdentifier: payload.autoRenewProductID ?? payload.productID ?? "",
            updatedMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: json.bytes
        )
    }
}
