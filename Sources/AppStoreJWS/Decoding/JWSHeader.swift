import _ReceiptKitShared

/// The JOSE header of an App Store JWS (RFC 7515 §4), as far as this profile reads it.
///
/// Apple writes `{"alg":"ES256","x5c":[leaf, intermediate, root]}`. Only `alg` and `x5c` are used; parameters that
/// would point verification at another key (`jwk`, `jku`, `x5u`) or demand extensions (`crit`) are recorded so the
/// verifier can refuse them — nothing is ever fetched or looked up by `kid`.
public struct JWSHeader: Sendable, Hashable {
    /// The `alg` parameter, when present.
    public let algorithm: String?
    /// The DER certificates of `x5c` (standard base64 in the header, RFC 7515 §4.1.6), leaf first; `nil` when absent.
    public let certificateChain: [[UInt8]]?
    /// Parameters present that name another key source or critical extensions (`jwk`, `jku`, `x5u`, `crit`).
    public let refusedParameters: [String]
    /// Every header parameter, as signed.
    public let fields: [String: JSONValue]

    static let refusable = ["crit", "jku", "jwk", "x5u"]

    init(_ value: JSONValue) throws(JWSError) {
        guard case .object(let fields) = value else { throw JWSError(.malformedJSON, "the header is not a JSON object") }
        switch fields["alg"] {
        case nil: self.algorithm = nil
        case .string(let algorithm)?: self.algorithm = algorithm
        case _?: throw JWSError(.malformedHeader, "alg is not a string")
        }
        switch fields["x5c"] {
        case nil:
            self.certificateChain = nil
        case .array(let elements)?:
            var chain: [[UInt8]] = []
            for element in elements {
                guard case .string(let text) = element, let der = Base64Decoder.bytes(of: text) else {
                    throw JWSError(.malformedHeader, "x5c holds something other than base64 certificates")
                }
                chain.append(der)
            }
            self.certificateChain = chain
        case _?:
            throw JWSError(.malformedHeader, "x5c is not an array")
        }
        self.refusedParameters = Self.refusable.filter { fields[$0] != nil }
        self.fields = fields
    }
}
