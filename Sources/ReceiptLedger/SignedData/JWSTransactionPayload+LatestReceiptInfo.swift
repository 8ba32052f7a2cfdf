public import AppStoreJWS

extension JWSTransactionPayload {
    /// The table from a verified StoreKit 2 transaction to verifyReceipt's `latest_receipt_info` element
    /// (Apple's `responseBody.Latest_receipt_info`): one row per key, in key byte order. Every documented key is
    /// known from signed data: `revocationDate` and `revocationReason` are the refund's (or Family Sharing
    /// revocation's) `cancellation_date*` and `cancellation_reason`; an introductory offer (`offerType` 1) is a free
    /// trial (`is_trial_period`) or an introductory price (`is_in_intro_offer_period`), both `"false"` for other
    /// subscription transactions and absent for other products; an offer code (3) is `offer_code_ref_name`, a
    /// promotional offer (2) `promotional_offer_id`; `is_upgraded` is written only when true, as Apple does.
    static let latestReceiptInfoFields: [VerifyReceiptField<JWSTransactionPayload>] = [
        .string("app_account_token") { $0.appAccountToken },
        .date("cancellation_date") { $0.revocationDate?.date },
        .digits("cancellation_reason") { $0.revocationReason?.rawValue },
        .date("expires_date") { $0.expiresDate?.date },
        .string("in_app_ownership_type") { $0.inAppOwnershipType?.rawValue },
        .textFlag("is_in_intro_offer_period") { $0.introductoryOffer.map { $0 == .introductoryPrice } },
        .textFlag("is_trial_period") { $0.introductoryOffer.map { $0 == .freeTrial } },
        .textFlag("is_upgraded") { $0.isUpgraded == true ? true : nil },
        .string("offer_code_ref_name") { $0.offerType == .offerCode ? $0.offerIdentifier : nil },
        .date("original_purchase_date") { $0.originalPurchaseDate?.date },
        .string("original_transaction_id") { $0.ledgerOriginalTransactionID },
        .string("product_id") { $0.productID },
        .string("promotional_offer_id") { $0.offerType == .promotionalOffer ? $0.offerIdentifier : nil },
        .date("purchase_date") { $0.purchaseDate?.date },
        .digits("quantity") { $0.quantity },
        .string("subscription_group_identifier") { $0.subscriptionGroupIdentifier },
        .string("transaction_id") { $0.transactionID },
        .string("web_order_line_item_id") { $0.webOrderLineItemID },
    ]

    /// The keys of a `latest_receipt_info` element that only signed data carries: a receipt's purchase table has no
    /// row for them. A key in both tables is written in one shape by both (the service's
    /// key-table test checks it); a key in one table only must be listed as that table's own, here or in
    /// ``receiptOnlyKeys``.
    static let signedDataOnlyKeys: Set<String> = [
        "app_account_token", "cancellation_reason", "in_app_ownership_type", "is_upgraded", "offer_code_ref_name",
        "subscription_group_identifier",
    ]

    /// The keys of a `latest_receipt_info` element that only a receipt carries: signed data has no field for them
    /// (`product_type` is an attribute of the receipt, undocumented by Apple).
    static let receiptOnlyKeys: Set<String> = ["product_type"]

    /// The `latest_receipt_info` element (UTF-8 JSON).
    func latestReceiptInfoJSON() -> [UInt8] {
        VerifyReceiptField.object(self, Self.latestReceiptInfoFields)
    }

    /// `originalTransactionId`, or the transaction's own id when absent or empty (a purchase is its own original):
    /// the original transaction id the ledger keeps the transaction under.
    public var ledgerOriginalTransactionID: String? {
        self.originalTransactionID.flatMap { $0.isEmpty ? nil : $0 } ?? self.transactionID
    }

    /// What the transaction says about an introductory period, as verifyReceipt's two flags tell it: `nil` for a
    /// transaction that is not a subscription and carries no introductory offer.
    var introductoryOffer: IntroductoryOffer? {
        if self.offerType == .introductoryOffer { return self.offerDiscountType == .freeTrial ? .freeTrial : .introductoryPrice }
        return self.expiresDate != nil ? IntroductoryOffer.none : nil
    }

    /// The introductory period a subscription transaction is in.
    enum IntroductoryOffer: Sendable {
        case none, freeTrial, introductoryPrice
    }
}
