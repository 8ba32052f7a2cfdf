extension AppReceipt {
    /// The table of the receipt's documented attributes — ASN.1 type, verifyReceipt key, property, and through
    /// the method the value's kind — one row each, sorted by key as the JSON is. The payload decoder, `Codable`,
    /// ``verifyReceiptJSON()`` and the minter in `ReceiptKitTesting` read it. Attributes without a row are kept in
    /// ``otherAttributes``; a type must not repeat except 17, and must lie in 0–63.
    @inline(__always)
    static func visitFields<V: ReceiptFieldVisitor>(of r: inout AppReceipt, with v: inout V) {
        v.alias("adam_id", of: "app_item_id", &r.appItemIdentifier)
        v.string(10, "age_rating", &r.ageRating)
        v.integer(1, "app_item_id", &r.appItemIdentifier, quoted: false)
        v.string(3, "application_version", &r.appVersion)
        v.string(2, "bundle_id", &r.bundleIdentifier, der: &r.bundleIdentifierData)
        v.integer(15, "download_id", &r.downloadIdentifier, quoted: false)
        v.date(21, "expiration_date", &r.expirationDate)
        v.purchases(17, "in_app", &r.inAppPurchases)
        v.octets(4, "opaque_value", &r.opaqueValue)
        v.string(19, "original_application_version", &r.originalAppVersion)
        v.date(18, "original_purchase_date", &r.originalPurchaseDate)
        v.date(12, "receipt_creation_date", &r.creationDate)
        v.string(0, "receipt_type", &r.environmentName)
        v.requestDate("request_date")
        v.octets(5, "sha1_hash", &r.sha1Hash)
        v.integer(16, "version_external_identifier", &r.versionExternalIdentifier, quoted: false)
    }

    /// ``environment`` as the string the receipt and the JSON carry.
    private var environmentName: String? {
        get { self.environment?.rawValue }
        set { self.environment = newValue.map(ReceiptEnvironment.init(rawValue:)) }
    }
}
