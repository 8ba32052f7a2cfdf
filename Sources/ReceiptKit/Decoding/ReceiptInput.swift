import _ReceiptKitShared

/// Normalises raw input before decoding: contiguous storage, base64 with whitespace, format sniffing.
public enum ReceiptInput {
    static func contiguous(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if let array = bytes as? [UInt8] { return array }
        return Array(bytes)
    }

    /// Decodes base64 text, ignoring ASCII whitespace, after checking the size cap on the text itself. Standard
    /// Base64 strictly (`Base64Decoder`): `=` only at the end, the standard alphabet, whole groups of four
    /// (Foundation's `Data(base64Encoded:)` on Linux decodes `"QU=D"` and `"===="`).
    static func decodeBase64(
        _ text: some Collection<UInt8>,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> [UInt8] {
        try Self.checkBase64Size(text.count, configuration: configuration)
        let decoded = Self.contiguous(text).withUnsafeBufferPointer { Base64Decoder.decode($0, skippingWhitespace: true) }
        return try Self.checkDecoded(decoded?.bytes, configuration: configuration)
    }

    /// Decodes base64 `text` as ``decodeBase64(_:configuration:)`` does, keeping the text when it is canonical
    /// (what `Data.base64EncodedString()` writes for the bytes), so that it can be sent back without encoding them.
    package static func decodeBase64(
        _ text: String,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> (bytes: [UInt8], canonical: CanonicalBase64?) {
        try Self.checkBase64Size(text.utf8.count, configuration: configuration)
        let decoded = Base64Decoder.decode(text, skippingWhitespace: true)
        return (try Self.checkDecoded(decoded?.bytes, configuration: configuration), decoded?.canonical)
    }

    private static func checkBase64Size(_ count: Int, configuration: ReceiptDecodingConfiguration) throws(ReceiptError) {
        let (limit, overflow) = configuration.maximumInputSize.multipliedReportingOverflow(by: 2)
        guard overflow || count <= limit else {
            throw ReceiptError(.inputTooLarge, "base64 input of \(count) bytes is too large")
        }
    }

    /// Something decoded, and within the size cap.
    private static func checkDecoded(_ bytes: [UInt8]?, configuration: ReceiptDecodingConfiguration) throws(ReceiptError)
        -> [UInt8]
    {
        guard let bytes, !bytes.isEmpty else {
            throw ReceiptError(.invalidBase64, "the input is not valid base64")
        }
        guard bytes.count <= configuration.maximumInputSize else {
            throw ReceiptError(
                .inputTooLarge,
                "input of \(bytes.count) bytes exceeds the limit of \(configuration.maximumInputSize)"
            )
        }
        return bytes
    }

    /// Whether `bytes` look like base64 text rather than binary DER: a DER receipt starts with a SEQUENCE tag
    /// (0x30), base64 of one starts with `M`.
    public static func looksLikeBase64(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first(where: { !Self.isWhitespace($0) }) else { return false }
        return first != 0x30 && first < 0x80
    }

    /// Decodes `bytes` as base64 when they look like it, otherwise returns them as they are.
    public static func normalized(
        _ bytes: [UInt8],
        base64: Bool? = nil,
        configuration: ReceiptDecodingConfiguration = .default
    ) throws(ReceiptError) -> [UInt8] {
        if base64 ?? Self.looksLikeBase64(bytes) {
            return try Self.decodeBase64(bytes, configuration: configuration)
        }
        return bytes
    }

    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x0B
    }
}
