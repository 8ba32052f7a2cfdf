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
        VerifyReceiptJSONFieldWriter.write(self, requestDate: requestDate, to: &json)
    }
}
