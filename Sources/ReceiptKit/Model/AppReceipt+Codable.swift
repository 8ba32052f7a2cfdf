extension AppReceipt: Codable {
    /// Encodes the receipt as Apple's `verifyReceipt` `receipt` object.
    ///
    /// Apple's keys and formats: `adam_id`, `app_item_id`, `download_id` and `version_external_identifier` are JSON
    /// numbers; dates come as `key`, `key_ms` and `key_pst`; `in_app` keeps receipt order; absent values are
    /// omitted. ReceiptKit adds `age_rating`, and `opaque_value` and `sha1_hash` as base64, which Apple's service
    /// does not return.
    public func encode(to encoder: any Encoder) throws {
        try ReceiptFieldEntry.encode(self, to: encoder)
    }

    /// Decodes the `verifyReceipt` `receipt` object (as written by ``encode(to:)`` or by Apple's service).
    ///
    /// ``bundleIdentifierData`` is not part of the JSON; it is set to the DER UTF8String of `bundle_id`, which is
    /// what Apple's receipts carry.
    public init(from decoder: any Decoder) throws {
        self = try VerifyReceiptFieldDecoder.decode(AppReceipt(), from: decoder)
    }
}
