extension InAppPurchase: Codable {
    /// Encodes the purchase as an element of `verifyReceipt`'s `in_app` array: ids and counts as strings, dates in
    /// three forms, the two flags as `"true"` / `"false"`; absent values are omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: VerifyReceiptCodingKey.self)
        try container.encodeIfPresent(self.quantity.map(String.init), "quantity")
        try container.encodeIfPresent(self.productIdentifier, "product_id")
        try container.encodeIfPresent(self.transactionIdentifier, "transaction_id")
        try container.encodeIfPresent(self.originalTransactionIdentifier, "original_transaction_id")
        try container.encodeVerifyReceiptDate(self.purchaseDate, "purchase_date")
        try container.encodeVerifyReceiptDate(self.originalPurchaseDate, "original_purchase_date")
        try container.encodeVerifyReceiptDate(self.expiresDate, "expires_date")
        try container.encodeVerifyReceiptDate(self.cancellationDate, "cancellation_date")
        try container.encodeIfPresent(self.webOrderLineItemIdentifier.map(String.init), "web_order_line_item_id")
        try container.encodeIfPresent(self.isTrialPeriod.map(String.init), "is_trial_period")
        try container.encodeIfPresent(self.isInIntroOfferPeriod.map(String.init), "is_in_intro_offer_period")
        try container.encodeIfPresent(self.promotionalOfferIdentifier, "promotional_offer_id")
        try container.encodeIfPresent(self.productType.map(String.init), "product_type")
    }

    /// Decodes the `verifyReceipt` form written by ``encode(to:)`` (numbers may also be JSON numbers).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: VerifyReceiptCodingKey.self)
        self.init(
            quantity: try container.decodeFlexibleInteger("quantity"),
            productIdentifier: try container.decodeIfPresent(String.self, "product_id"),
            transactionIdentifier: try container.decodeIfPresent(String.self, "transaction_id"),
            purchaseDate: try container.decodeVerifyReceiptDate("purchase_date"),
            originalTransactionIdentifier: try container.decodeIfPresent(String.self, "original_transaction_id"),
            originalPurchaseDate: try container.decodeVerifyReceiptDate("original_purchase_date"),
            productType: try container.decodeFlexibleInteger("product_type"),
            expiresDate: try container.decodeVerifyReceiptDate("expires_date"),
            webOrderLineItemIdentifier: try container.decodeFlexibleInteger("web_order_line_item_id"),
            cancellationDate: try container.decodeVerifyReceiptDate("cancellation_date"),
            isTrialPeriod: try container.decodeFlexibleBool("is_trial_period"),
            isInIntroOfferPeriod: try container.decodeFlexibleBool("is_in_intro_offer_period"),
            promotionalOfferIdentifier: try container.decodeIfPresent(String.self, "promotional_offer_id")
        )
    }
}
