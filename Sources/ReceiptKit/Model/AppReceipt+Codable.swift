import struct Foundation.Data

extension AppReceipt: Codable {
    /// Encodes the receipt as Apple's `verifyReceipt` `receipt` object.
    ///
    /// Apple's keys and formats: `adam_id`, `app_item_id`, `download_id` and `version_external_identifier` are JSON
    /// numbers; dates come as `key`, `key_ms` and `key_pst`; `in_app` keeps receipt order; absent values are
    /// omitted. ReceiptKit adds `age_rating`, and `opaque_value` and `sha1_hash` as base64, which Apple's service
    /// does not return.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: VerifyReceiptCodingKey.self)
        try container.encodeIfPresent(self.environment, "receipt_type")
        try container.encodeIfPresent(self.appItemIdentifier, "adam_id")
        try container.encodeIfPresent(self.appItemIdentifier, "app_item_id")
        try container.encodeIfPresent(self.bundleIdentifier, "bundle_id")
        try container.encodeIfPresent(self.appVersion, "application_version")
        try container.encodeIfPresent(self.downloadIdentifier, "download_id")
        try container.encodeIfPresent(self.versionExternalIdentifier, "version_external_identifier")
        try container.encodeVerifyReceiptDate(self.creationDate, "receipt_creation_date")
        try container.encodeVerifyReceiptDate(self.originalPurchaseDate, "original_purchase_date")
        try container.encodeIfPresent(self.originalAppVersion, "original_application_version")
        try container.encodeVerifyReceiptDate(self.expirationDate, "expiration_date")
        try container.encodeIfPresent(self.ageRating, "age_rating")
        try container.encodeIfPresent(self.opaqueValue.map { Data($0).base64EncodedString() }, "opaque_value")
        try container.encodeIfPresent(self.sha1Hash.map { Data($0).base64EncodedString() }, "sha1_hash")
        try container.encode(self.inAppPurchases, forKey: .init("in_app"))
    }

    /// Decodes the `verifyReceipt` `receipt` object (as written by ``encode(to:)`` or by Apple's service).
    ///
    /// ``bundleIdentifierData`` is not part of the JSON; it is set to the DER UTF8String of `bundle_id`, which is
    /// what Apple's receipts carry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: VerifyReceiptCodingKey.self)
        let bundleIdentifier = try container.decodeIfPresent(String.self, "bundle_id")
        func base64(_ key: String) throws -> [UInt8]? {
            guard let text = try container.decodeIfPresent(String.self, key) else { return nil }
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .init(key),
                    in: container,
                    debugDescription: "not base64"
                )
            }
            return [UInt8](data)
        }
        self.init(
            environment: try container.decodeIfPresent(ReceiptEnvironment.self, "receipt_type"),
            appItemIdentifier: try container.decodeFlexibleInteger("app_item_id")
                ?? container.decodeFlexibleInteger("adam_id"),
            bundleIdentifier: bundleIdentifier,
            bundleIdentifierData: bundleIdentifier.map { DEREncoding.utf8String($0) },
            appVersion: try container.decodeIfPresent(String.self, "application_version"),
            opaqueValue: try base64("opaque_value"),
            sha1Hash: try base64("sha1_hash"),
            ageRating: try container.decodeIfPresent(String.self, "age_rating"),
            creationDate: try container.decodeVerifyReceiptDate("receipt_creation_date"),
            downloadIdentifier: try container.decodeFlexibleInteger("download_id"),
            versionExternalIdentifier: try container.decodeFlexibleInteger("version_external_identifier"),
            originalPurchaseDate: try container.decodeVerifyReceiptDate("original_purchase_date"),
            originalAppVersion: try container.decodeIfPresent(String.self, "original_application_version"),
            expirationDate: try container.decodeVerifyReceiptDate("expiration_date"),
            inAppPurchases: try container.decodeIfPresent([InAppPurchase].self, "in_app") ?? []
        )
    }
}
