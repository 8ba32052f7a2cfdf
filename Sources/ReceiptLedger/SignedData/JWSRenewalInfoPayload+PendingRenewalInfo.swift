import AppStoreJWS

extension JWSRenewalInfoPayload {
    /// The table from verified StoreKit 2 renewal information to verifyReceipt's `pending_renewal_info` element
    /// (Apple's `responseBody.Pending_renewal_info`): one row per key, in key byte order. An offer code (`offerType`
    /// 3) is `offer_code_ref_name`, a promotional offer (2) `promotional_offer_id`. Apple documents both
    /// `price_consent_status` and `price_increase_status`; signed data has one field, `priceIncreaseStatus`, whose
    /// values mean the same (0: the customer has not responded to an increase that needs consent; 1: consented, or
    /// notified of one that needs none), so both keys are written from it.
    static let pendingRenewalInfoFields: [VerifyReceiptField<JWSRenewalInfoPayload>] = [
        .string("auto_renew_product_id") { $0.autoRenewProductID },
        .digits("auto_renew_status") { $0.autoRenewStatus?.rawValue },
        .digits("expiration_intent") { $0.expirationIntent?.rawValue },
        .date("grace_period_expires_date") { $0.gracePeriodExpiresDate?.date },
        .digitFlag("is_in_billing_retry_period") { $0.isInBillingRetryPeriod },
        .string("offer_code_ref_name") { $0.offerType == .offerCode ? $0.offerIdentifier : nil },
        .string("original_transaction_id") { $0.originalTransactionID },
        .digits("price_consent_status") { $0.priceIncreaseStatus?.rawValue },
        .digits("price_increase_status") { $0.priceIncreaseStatus?.rawValue },
        .string("product_id") { $0.productID },
        .string("promotional_offer_id") { $0.offerType == .promotionalOffer ? $0.offerIdentifier : nil },
    ]

    /// The `pending_renewal_info` element (UTF-8 JSON).
    func pendingRenewalInfoJSON() -> [UInt8] {
        VerifyReceiptField.object(self, Self.pendingRenewalInfoFields)
    }
}
