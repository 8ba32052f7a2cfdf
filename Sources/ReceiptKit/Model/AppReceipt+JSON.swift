package import struct Foundation.Data
package import struct Foundation.Date
package import _ReceiptKitShared

extension AppReceipt {
    /// The receipt as Apple's `verifyReceipt` `receipt` object, in UTF-8 JSON with sorted keys.
    ///
    /// The bytes are exactly what `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` makes of the
    /// `Codable` form (``encode(to:)``), written directly: no encoder containers, no intermediate strings for
    /// dates, strings of decoded purchases copied from the receipt's own bytes. Batch validation and services use
    /// this; `Codable` stays the model's API for decoding and for your own encoders.
    ///
    /// ```swift
    /// let json = receipt.verifyReceiptJSON()   // [UInt8]
    /// ```
    public func verifyReceiptJSON() -> [UInt8] {
        var json = JSONWriter(capacity: 512 + 640 * self.inAppPurchases.count)
        self.write(to: &json)
        return json.bytes
    }

    /// Writes the `receipt` object (keys in byte order, as `.sortedKeys` orders them); a service adds the
    /// `request_date` fields Apple's responses carry.
    package func write(to json: inout JSONWriter, requestDate: Date? = nil) {
        json.beginObject()
        if let value = self.appItemIdentifier {
            json.key("adam_id")
            json.integer(value)
        }
        if let value = self.ageRating {
            json.key("age_rating")
            json.string(value)
        }
        if let value = self.appItemIdentifier {
            json.key("app_item_id")
            json.integer(value)
        }
        if let value = self.appVersion {
            json.key("application_version")
            json.string(value)
        }
        if let value = self.bundleIdentifier {
            json.key("bundle_id")
            json.string(value)
        }
        if let value = self.downloadIdentifier {
            json.key("download_id")
            json.integer(value)
        }
        VerifyReceiptDateFormat.write(self.expirationDate, key: "expiration_date", to: &json)
        json.key("in_app")
        json.beginArray()
        for purchase in self.inAppPurchases {
            purchase.write(to: &json)
        }
        json.endArray()
        if let value = self.opaqueValue {
            json.key("opaque_value")
            json.string(Data(value).base64EncodedString())
        }
        if let value = self.originalAppVersion {
            json.key("original_application_version")
            json.string(value)
        }
        VerifyReceiptDateFormat.write(self.originalPurchaseDate, key: "original_purchase_date", to: &json)
        VerifyReceiptDateFormat.write(self.creationDate, key: "receipt_creation_date", to: &json)
        if let value = self.environment {
            json.key("receipt_type")
            json.string(value.rawValue)
        }
        VerifyReceiptDateFormat.write(requestDate, key: "request_date", to: &json)
        if let value = self.sha1Hash {
            json.key("sha1_hash")
            json.string(Data(value).base64EncodedString())
        }
        if let value = self.versionExternalIdentifier {
            json.key("version_external_identifier")
            json.integer(value)
        }
        json.endObject()
    }
}
