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
        environment: AppStoreEnvironment
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
    /// Mapping: offer codes (`offerType` 3) → `offer_code_ref_name`, promotional offers (2) → `promotional_offer_id`;
    /// the keys and their formats are `PendingRenewalInfo`'s table.
    static func renewalInfo(
        _ payload: JWSRenewalInfoPayload,
        bundleIdentifier: String,
        environment: AppStoreEnvironment
    ) -> LedgerRenewalInfo? {
        guard let original = payload.originalTransactionID, !original.isEmpty else { return nil }
        var info = PendingRenewalInfo()
        info.autoRenewProductIdentifier = payload.autoRenewProductID
        info.autoRenewStatus = payload.autoRenewStatus
        info.expirationIntent = payload.expirationIntent
        info.gracePeriodExpiresDate = payload.gracePeriodExpiresDate?.date
        info.isInBillingRetryPeriod = payload.isInBillingRetryPeriod
        info.offerCodeReferenceName = payload.offerType == 3 ? payload.offerIdentifier : nil
        info.originalTransactionIdentifier = original
        info.priceIncreaseStatus = payload.priceIncreaseStatus
        info.productIdentifier = payload.productID
        info.promotionalOfferIdentifier = payload.offerType == 2 ? payload.offerIdentifier : nil
        return LedgerRenewalInfo(
            environment: environment,
            bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifier: original,
            productIdentifier: payload.autoRenewProductID ?? payload.productID ?? "",
            updatedMilliseconds: payload.signedDate?.date.epochMilliseconds ?? 0,
            json: info.verifyReceiptJSON()
        )
    }
}
