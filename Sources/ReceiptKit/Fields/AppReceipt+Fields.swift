extension AppReceipt {
    /// The table of the receipt's documented attributes — ASN.1 type, verifyReceipt key, property, and through
    /// the method the value's kind — one row each, sorted by key as the JSON is. The payload decoder, `Codable`,
    /// ``verifyReceiptJSON()`` and the minter in `ReceiptKitTesting` read it. Attributes without a row are kept in
    /// ``otherAttributes``; a type must not repeat except 17, and must lie in 0–63.
    @inline(__always)
    static func visitFields<V: ReceiptFieldVisitor>(of r: inout AppReceipt, with v: inout V) throws(V.Failure) {
        try v.alias("adam_id", of: "app_item_id", &r.appItemIdentifier)
        try v.string(10, "age_rating", &r.ageRating)
        try v.integer(1, "app_item_id", &r.appItemIdentifier, quoted: false)
        try v.string(3, "application_version", &r.appVersion)
        try v.string(2, "bundle_id", &r.bundleIdentifier, der: &r.bundleIdentifierData)
        try v.integer(15, "download_id", &r.downloadIdentifier, quoted: false)
        try v.date(21, "expiration_date", &r.expirationDate)
        try v.purchases(17, "in_app", &r.inAppPurchases)
        try v.octets(4, "opaque_value", &r.opaqueValue)
        try v.string(19, "original_application_version", &r.originalAppVersion)
        try v.date(18, "original_purchase_date", &r.originalPurchaseDate)
        try v.date(12, "receipt_creation_date", &r.creationDate)
        try v.string(0, "receipt_type", &r.environmentName)
        try v.requestDate("request_date")
        try v.octets(5, "sha1_hash", &r.sha1Hash)
        try v.integer(16, "version_external_identifier", &r.versionExternalIdentifier, quoted: false)
    }

    /// ``environment`` as the string the receipt and the JSON carry.
    private var environmentName: String? {
        get { self.environment?.rawValue }
        set { self.environment = newValue.map(ReceiptEnvironment.init(rawValue:)) }
    }
}
