/// The transaction receipts of StoreKit's first API (`SKPaymentTransaction.transactionReceipt`, deprecated in iOS 7):
/// base64 text of a property list in NeXTSTEP's text format, whose `purchase-info` entry is base64 text of another
/// such list, which names the purchase's `transaction-id`.
///
/// ```text
/// {
///     "signature" = "…";
///     "purchase-info" = "ewoJIm9yaWdpbmFsLXB1cmNoYXNlLWRhdGUtcHN0IiA9ICIy…";
///     "environment" = "Sandbox";
/// }
/// ```
///
/// Nothing here checks the signature: the identifier is for calling the App Store Server API, whose answers are
/// signed (what Apple's `ReceiptUtility.extractTransactionId(transactionReceipt:)` does).
public enum TransactionReceipt {
    /// The `transaction-id` of a transaction receipt, or `nil` when its purchase information names none.
    ///
    /// - Parameters:
    ///   - text: The receipt as the app sent it: base64, ASCII whitespace and line breaks skipped.
    ///   - configuration: The size limit (``ReceiptDecodingConfiguration/maximumInputSize``) for the decoded text.
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/invalidBase64`` when the receipt or its `purchase-info`
    ///   is not base64 or is empty, ``ReceiptError/Code/inputTooLarge`` past the size limit, and
    ///   ``ReceiptError/Code/malformedPayload`` when the receipt has no `purchase-info` entry.
    public static func transactionIdentifier(
        base64Encoded text: some Collection<UInt8>,
        configuration: ReceiptDecodingConfiguration = .default
    ) throws(ReceiptError) -> String? {
        let receipt = try ReceiptInput.decodeBase64(text, configuration: configuration)
        guard let purchaseInfo = Self.value(of: "purchase-info", in: receipt) else {
            throw ReceiptError(.malformedPayload, "the transaction receipt has no \"purchase-info\" entry")
        }
        let purchase = try ReceiptInput.decodeBase64(purchaseInfo, configuration: configuration)
        guard let identifier = Self.value(of: "transaction-id", in: purchase), !identifier.isEmpty else { return nil }
        return String(decoding: identifier, as: UTF8.self)
    }

    /// The value of the first `"key" = "value";` entry for `key` in a text-format property list whose values are
    /// plain quoted strings (no escapes: these lists hold base64, digits and dates), or `nil`.
    static func value(of key: String, in text: [UInt8]) -> ArraySlice<UInt8>? {
        let quoted = Array("\"\(key)\"".utf8)
        guard quoted.count <= text.count else { return nil }
        var start = 0
        while start <= text.count - quoted.count {
            defer { start += 1 }
            guard text[start..<(start + quoted.count)].elementsEqual(quoted) else { continue }
            var i = Self.skippingSpace(text, from: start + quoted.count)
            guard i < text.count, text[i] == UInt8(ascii: "=") else { continue }
            i = Self.skippingSpace(text, from: i + 1)
            guard i < text.count, text[i] == UInt8(ascii: "\"") else { continue }
            let valueStart = i + 1
            guard let valueEnd = text[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            let after = Self.skippingSpace(text, from: valueEnd + 1)
            guard after < text.count, text[after] == UInt8(ascii: ";") else { continue }
            return text[valueStart..<valueEnd]
        }
        return nil
    }

    private static func skippingSpace(_ text: [UInt8], from index: Int) -> Int {
        var i = index
        while i < text.count, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i += 1 }
        return i
    }
}
