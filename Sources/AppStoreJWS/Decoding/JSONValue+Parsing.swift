import _ReceiptKitShared

extension JSONValue {
    /// Parses JSON text with the strict rules used for signed payloads (RFC 8259; duplicate member names, invalid
    /// UTF-8, lone surrogates and trailing text refused; nesting bounded).
    /// - Throws: ``JWSError`` with ``JWSError/Code/malformedJSON``.
    public init(jsonEncoded bytes: some Collection<UInt8>, maximumDepth: Int = JWSDecodingConfiguration.default.maximumDepth) throws(JWSError) {
        do {
            self = try JSONParser.parse(Array(bytes), maximumDepth: maximumDepth)
        } catch {
            throw JWSError(.malformedJSON, error.reason)
        }
    }
}
