package import _ReceiptKitShared

extension InAppPurchase {
    /// Writes the purchase as an element of `in_app`: the bytes `JSONEncoder` with `.sortedKeys` makes of
    /// ``encode(to:)``. Strings still inside the receipt's bytes are copied from there (they were validated as
    /// UTF-8 when decoded), never materialised as `String`.
    package func write(to json: inout JSONWriter) {
        VerifyReceiptJSONFieldWriter.write(self, raw: self.raw, to: &json)
    }
}
