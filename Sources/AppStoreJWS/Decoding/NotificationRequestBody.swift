import _ReceiptKitShared

/// The body Apple POSTs to a server-notification URL: `{"signedPayload":"<compact JWS>"}`.
///
/// Parsed with the same strict JSON rules as the JWS itself (a body with two `signedPayload` members is refused, not
/// resolved one way or the other). Other members are ignored, so a field Apple adds to the envelope does not break
/// the endpoint.
public struct NotificationRequestBody: Sendable, Hashable {
    /// The notification's compact JWS, not yet verified.
    public let signedPayload: String

    /// Parses a request body.
    /// - Throws: ``JWSError`` with ``JWSError/Code/inputTooLarge`` over the configured length,
    ///   ``JWSError/Code/malformedJSON`` when it is not a JSON object, or ``JWSError/Code/malformedJWS`` when
    ///   `signedPayload` is missing or not a string.
    public init(jsonEncoded body: some Collection<UInt8>, configuration: JWSDecodingConfiguration = .default) throws(JWSError) {
        // The envelope adds a few bytes around the JWS; it is bounded by the same limit plus that much.
        let limit = configuration.maximumLength + 1024
        guard body.count <= limit else {
            throw JWSError(.inputTooLarge, "\(body.count) bytes; the limit is \(limit)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(body), maximumDepth: configuration.maximumDepth)
        } catch {
            throw JWSError(.malformedJSON, error.reason)
        }
        guard case .object(let members) = value else {
            throw JWSError(.malformedJSON, "the body is not a JSON object")
        }
        guard case .string(let signedPayload)? = members["signedPayload"] else {
            throw JWSError(.malformedJWS, "the body has no signedPayload string")
        }
        self.signedPayload = signedPayload
    }

    /// The compact JWS `input` holds: `input` itself, or — when it is a JSON object — its `signedPayload`. What a
    /// tool or endpoint accepting "a JWS or the body Apple posts" reads.
    /// - Throws: ``JWSError`` when `input` is an object that is not a notification body.
    public static func compactJWS(
        in input: [UInt8],
        configuration: JWSDecodingConfiguration = .default
    ) throws(JWSError) -> [UInt8] {
        let first = input.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "{") else { return input }
        return Array(try NotificationRequestBody(jsonEncoded: input, configuration: configuration).signedPayload.utf8)
    }
}
