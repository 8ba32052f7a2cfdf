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
        let (bytes, parts) = try Self.split(text, configuration: configuration)
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else {
            throw JWSError(.malformedJWS, "a part is not unpadded base64url")
        }
        let header = try Self.parse(headerBytes, configuration: configuration)
        let members = try Self.object(Self.parse(payloadBytes, configuration: configuration))
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
        let (_, parts) = try Self.split(text, configuration: configuration)
        guard let payloadBytes = Base64URL.decode(parts[1]) else {
            throw JWSError(.malformedJWS, "the payload is not unpadded base64url")
        }
        return try Self.object(Self.parse(payloadBytes, configuration: configuration))
    }

    /// `text` within the size limit, without trailing line breaks (from files and pipes: not part of the token), and
    /// its three dot-separated parts.
    private static func split(
        _ text: some Collection<UInt8>, configuration: JWSDecodingConfiguration
    ) throws(JWSError) -> (bytes: [UInt8], parts: [ArraySlice<UInt8>]) {
        guard text.count <= configuration.maximumLength else {
            throw JWSError(.inputTooLarge, "\(text.count) bytes; the limit is \(configuration.maximumLength)")
        }
        var bytes = Array(text)
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JWSError(.malformedJWS, "\(parts.count) dot-separated parts; a compact JWS has 3")
        }
        return (bytes, parts)
    }

    /// A decoded part as strict JSON, within the depth limit.
    private static func parse(_ bytes: [UInt8], configuration: JWSDecodingConfiguration) throws(JWSError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, maximumDepth: configuration.maximumDepth)
        } catch {
            throw JWSError(.malformedJSON, error.reason)
        }
    }

    /// The payload's members: a payload is a JSON object.
    private static func object(_ payload: JSONValue) throws(JWSError) -> [String: JSONValue] {
        guard case .object(let members) = payload else {
            throw JWSError(.malformedJSON, "the payload is not a JSON object")
        }
        return members
    }
}
