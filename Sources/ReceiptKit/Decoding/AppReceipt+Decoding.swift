import struct Foundation.Data

extension AppReceipt {
    /// Decodes a receipt from its DER or BER encoding (the bytes of a `receipt` file), without checking trust.
    ///
    /// - Parameters:
    ///   - bytes: The PKCS#7 / CMS `SignedData` bytes (`berEncoded:`).
    ///   - configuration: Resource limits for hostile input.
    /// - Throws: ``ReceiptError`` when the bytes are not a well-formed receipt or exceed a limit.
    public init(
        berEncoded bytes: some Collection<UInt8>,
        configuration: ReceiptDecodingConfiguration = .default
    ) throws(ReceiptError) {
        let array = ReceiptInput.contiguous(bytes)
        self = try ReceiptContainer.decode(array[...], configuration: configuration).receipt
    }

    /// Decodes a base64 encoded receipt (as apps send it to servers), tolerating ASCII whitespace and line breaks.
    ///
    /// The text is standard Base64 (RFC 4648 §4): the standard alphabet, whole groups of four once whitespace is
    /// skipped, `=` only as the last one or two symbols. Text that Foundation's lenient `Data(base64Encoded:)`
    /// accepted on Linux, such as `=` inside the text or more padding than a group needs, is refused (a change of
    /// 2026-11-27; no Base64 encoder writes such text). Non-zero unused bits in the last symbol (`QR==`) are still
    /// accepted, as Foundation accepts them.
    ///
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/invalidBase64`` when the text is not base64, or any
    ///   error of ``init(berEncoded:configuration:)``.
    public init(
        base64Encoded text: some Collection<UInt8>,
        configuration: ReceiptDecodingConfiguration = .default
    ) throws(ReceiptError) {
        let bytes = try ReceiptInput.decodeBase64(text, configuration: configuration)
        self = try ReceiptContainer.decode(bytes[...], configuration: configuration).receipt
    }
}
