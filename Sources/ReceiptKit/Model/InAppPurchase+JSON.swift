package import _ReceiptKitShared

extension InAppPurchase {
    /// Writes the purchase as an element of `in_app`: the bytes `JSONEncoder` with `.sortedKeys` makes of
    /// ``encode(to:)``. Strings still inside the receipt's bytes are copied from there (they were validated as
    /// UTF-8 when decoded), never materialised as `String`.
    package func write(to json: inout JSONWriter) {
        json.beginObject()
        VerifyReceiptDateFormat.write(self.cancellationDate, key: "cancellation_date", to: &json)
        VerifyReceiptDateFormat.write(self.expiresDate, key: "expires_date", to: &json)
        if let value = self.isInIntroOfferPeriod {
            json.key("is_in_intro_offer_period")
            json.literal(value ? "\"true\"" : "\"false\"")
        }
        if let value = self.isTrialPeriod {
            json.key("is_trial_period")
            json.literal(value ? "\"true\"" : "\"false\"")
        }
        VerifyReceiptDateFormat.write(self.originalPurchaseDate, key: "original_purchase_date", to: &json)
        self.write(self.storedOriginalTransactionIdentifier, key: "original_transaction_id", to: &json)
        self.write(self.storedProductIdentifier, key: "product_id", to: &json)
        if let value = self.productType {
            json.key("product_type")
            json.integerString(value)
        }
        self.write(self.storedPromotionalOfferIdentifier, key: "promotional_offer_id", to: &json)
        VerifyReceiptDateFormat.write(self.purchaseDate, key: "purchase_date", to: &json)
        if let value = self.quantity {
            json.key("quantity")
            json.integerString(value)
        }
        self.write(self.storedTransactionIdentifier, key: "transaction_id", to: &json)
        if let value = self.webOrderLineItemIdentifier {
            json.key("web_order_line_item_id")
            json.integerString(value)
        }
        json.endObject()
    }

    private func write(_ text: DeferredText, key: StaticString, to json: inout JSONWriter) {
        if case .text(let value) = text {
            json.key(key)
            json.string(value)
        } else if let bytes = text.span(in: self.raw) {
            json.key(key)
            bytes.withUnsafeBufferPointer { json.string(utf8: $0) }
        }
    }
}
