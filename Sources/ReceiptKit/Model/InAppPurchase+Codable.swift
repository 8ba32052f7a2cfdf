extension InAppPurchase: Codable {
    /// Encodes the purchase as an element of `verifyReceipt`'s `in_app` array: ids and counts as strings, dates in
    /// three forms, the two flags as `"true"` / `"false"`; absent values are omitted.
    public func encode(to encoder: any Encoder) throws {
        try ReceiptFieldEntry.encode(self, raw: self.raw, to: encoder)
    }

    /// Decodes the `verifyReceipt` form written by ``encode(to:)`` (numbers may also be JSON numbers).
    public init(from decoder: any Decoder) throws {
        self = try VerifyReceiptFieldDecoder.decode(InAppPurchase(), from: decoder)
    }
}
