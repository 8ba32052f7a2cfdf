import _ReceiptKitShared

/// A JWS in compact serialization (RFC 7515 §7.1) split and decoded, nothing verified:
/// `BASE64URL(header) . BASE64URL(payload) . BASE64URL(signature)`.
public struct CompactJWS: Sendable {
    /// The header.
    public let header: JWSHeader
    /// The payload, parsed as a JSON object.
    public let payload: [String: JSONValue]
    /// The signature bytes as sent (ES256: 64 bytes, r ‖ s).
    public let signature: [UInt8]
    /// The exact ASCII text the signature covers: `header.payload` as received.
    public let signingInput: [UInt8]

    /// Splits and decodes `text`.
    /// - Throws: ``JWSError`` when it is not three canonical base64url parts with JSON-object header and payload.
    public init(_ text: some Collection<UInt8>, configuration: JWSDecodingConfiguration = .default) throws(JWSError) {
        guard text.count <= configuration.maximumLength else {
            throw JWSError(.inputTooLarge, "\(text.count) bytes; the limit is \(configuration.maximumLength)")
        }
        var bytes = Array(text)
        // Trailing line breaks from files and pipes are not part of the token.
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JWSError(.malformedJWS, "\(parts.count) dot-separated parts; a compact JWS has 3")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else {
            throw JWSError(.malformedJWS, "a part is not unpadded base64url")
        }
        let header: JSONValue
        let payload: JSONValue
        do {
            header = try JSONParser.parse(headerBytes, maximumDepth: configuration.maximumDepth)
            payload = try JSONParser.parse(payloadBytes, maximumDepth: configuration.maximumDepth)
        } catch {
            throw JWSError(.malformedJSON, error.reason)
        }
        guard case .object(let members) = payload else {
            throw JWSError(.malformedJSON, "the payload is not a JSON object")
        }
        self.header = try JWSHeader(header)
        guard (self.header.certificateChain?.count ?? 0) <= configuration.maximumCertificateCount else {
            throw JWSError(.malformedCertificate, "more than \(configuration.maximumCertificateCount) certificates in x5c")
        }
        self.payload = members
        self.signature = signature
        self.signingInput = Array(bytes[bytes.startIndex..<parts[1].endIndex])
    }

    /// The payload of `text`, a compact JWS verified before — one a ledger kept once it was verified —, read
    /// without decoding its header or signature: a third of the work of ``init(_:configuration:)`` on Apple's JWS,
    /// whose header carries three certificates. Nothing is verified; the parts are counted and the payload held to
    /// the same rules.
    /// - Throws: ``JWSError`` when it is not three dot-separated parts with a canonical base64url JSON-object
    ///   payload.
    public static func payload(
        of text: some Collection<UInt8>, configuration: JWSDecodingConfiguration = .default
    ) throws(JWSError) -> [String: JSONValue] {
        guard text.count <= configuration.maximumLength else {
            throw JWSError(.inputTooLarge, "\(text.count) bytes; the limit is \(configuration.maximumLength)")
        }
        let bytes = Array(text)
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JWSError(.malformedJWS, "\(parts.count) dot-separated parts; a compact JWS has 3")
        }
        guard let payloadBytes = Base64URL.decode(parts[1]) else {
            throw JWSError(.malformedJWS, "the payload is not unpadded base64url")
        }
        let payload: JSONValue
        do {
            payload = try JSONParser.parse(payloadBytes, maximumDepth: configuration.maximumDepth)
        } catch {
            throw JWSError(.malformedJSON, error.reason)
        }
        guard case .object(let members) = payload else {
            throw JWSError(.malformedJSON, "the payload is not a JSON object")
        }
        return members
    }
}
