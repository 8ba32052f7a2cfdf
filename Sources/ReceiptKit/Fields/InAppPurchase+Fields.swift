extension InAppPurchase {
    /// The table of an in-app purchase record's documented attributes — ASN.1 type, verifyReceipt key, property,
    /// and through the method the value's kind — one row each, sorted by key as the JSON is. The payload decoder,
    /// `Codable`, the direct JSON writer, the mirror and the minter in `ReceiptKitTesting` read it. Attributes
    /// without a row stay in the record's bytes (``otherAttributes``); a type must not repeat and must lie in
    /// 1700–1763. The mirror names each row after its key (`web_order_line_item_id`: `webOrderLineItemIdentifier`).
    @inline(__always)
    static func visitFields<V: ReceiptFieldVisitor>(of r: inout InAppPurchase, with v: inout V) {
        v.date(1712, "cancellation_date", &r.cancellationDate)
        v.date(1708, "expires_date", &r.expiresDate)
        v.flag(1719, "is_in_intro_offer_period", &r.isInIntroOfferPeriod)
        v.flag(1713, "is_trial_period", &r.isTrialPeriod)
        v.date(1706, "original_purchase_date", &r.originalPurchaseDate)
        v.text(1705, "original_transaction_id", &r.storedOriginalTransactionIdentifier)
        v.text(1702, "product_id", &r.storedProductIdentifier)
        v.integer(1707, "product_type", &r.productType, quoted: true)
        v.text(1721, "promotional_offer_id", &r.storedPromotionalOfferIdentifier)
        v.date(1704, "purchase_date", &r.purchaseDate)
        v.integer(1701, "quantity", &r.quantity, quoted: true)
        v.text(1703, "transaction_id", &r.storedTransactionIdentifier)
        v.integer(1711, "web_order_line_item_id", &r.webOrderLineItemIdentifier, quoted: true)
    }
}
