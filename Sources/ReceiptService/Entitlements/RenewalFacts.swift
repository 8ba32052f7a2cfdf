import AppStoreJWS
import ReceiptLedger

/// A subscription's renewal state as the entitlement rules read it: the `pending_renewal_info` element the ledger
/// holds (from notifications and the App Store Server API), and, where it kept the JWS, the signed renewal
/// information itself.
struct RenewalFacts: Sendable {
    /// `autoRenewStatus` (`auto_renew_status`): whether the subscription renews.
    var autoRenewStatus: AutoRenewStatus?
    /// `autoRenewProductId`: the product it renews into (another level of the group after a downgrade or crossgrade).
    var autoRenewProductID: String?
    /// `expirationIntent`: why it expired.
    var expirationIntent: ExpirationIntent?
    /// `isInBillingRetryPeriod`: whether the App Store is still trying to bill the customer.
    var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`: until when the customer keeps access while the App Store tries to bill.
    var gracePeriodExpiresMilliseconds: Int64?
    /// The offer the next renewal is under.
    var offer: PurchaseOffer?
    /// The date of the version the ledger holds.
    var versionMilliseconds: Int64

    /// The renewal state a stored row tells (its `pending_renewal_info` element).
    init(_ row: LedgerRenewalInfo) {
        let members = VerifyReceiptMembers(row.json)
        self.autoRenewStatus = members.integer("auto_renew_status").map(AutoRenewStatus.init(rawValue:))
        self.autoRenewProductID = members.string("auto_renew_product_id")
        self.expirationIntent = members.integer("expiration_intent").map(ExpirationIntent.init(rawValue:))
        self.isInBillingRetryPeriod = members.integer("is_in_billing_retry_period").map { $0 != 0 }
        self.gracePeriodExpiresMilliseconds = members.integer("grace_period_expires_date_ms")
        if let promotional = members.string("promotional_offer_id") {
            self.offer = PurchaseOffer(kind: "promotional", identifier: promotional)
        } else if let code = members.string("offer_code_ref_name") {
            self.offer = PurchaseOffer(kind: "offer_code", identifier: code)
        } else {
            self.offer = nil
        }
        self.versionMilliseconds = row.updatedMilliseconds
    }

    /// The renewal state verified signed renewal information tells.
    init(_ payload: JWSRenewalInfoPayload, versionMilliseconds: Int64? = nil) {
        self.autoRenewStatus = payload.autoRenewStatus
        self.autoRenewProductID = payload.autoRenewProductID
        self.expirationIntent = payload.expirationIntent
        self.isInBillingRetryPeriod = payload.isInBillingRetryPeriod
        self.gracePeriodExpiresMilliseconds = payload.fields.integer("gracePeriodExpiresDate")
        self.offer = PurchaseOffer(
            type: payload.offerType, discount: payload.offerDiscountType, identifier: payload.offerIdentifier)
        self.versionMilliseconds = versionMilliseconds ?? payload.fields.integer("signedDate") ?? 0
    }
}
