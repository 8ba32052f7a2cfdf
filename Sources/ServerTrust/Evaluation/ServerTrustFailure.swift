/// Why a server's chain is not trusted for a host: a stable snake_case reason code.
///
/// ``pinMismatch`` and ``pinsExpired`` are the *pin* failures: the only ones a report-only policy allows.
public struct ServerTrustFailure: Sendable, Hashable, Codable, CustomStringConvertible {
    public let code: String
    init(_ code: String) { self.code = code }
    public var description: String { self.code }

    public init(from decoder: any Decoder) throws {
        self.code = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.code)
    }

    /// No path from the leaf to a trusted anchor exists (at any instant the certificates are all valid).
    public static let chainUntrusted = ServerTrustFailure("chain_untrusted")
    /// A path exists, but a certificate on it is outside its validity window at the evaluation time.
    public static let expired = ServerTrustFailure("expired")
    /// The leaf does not name the host (DNS SAN) or IP address (IP SAN).
    public static let hostnameMismatch = ServerTrustFailure("hostname_mismatch")
    /// The leaf's extended key usage allows neither serverAuth nor anyExtendedKeyUsage.
    public static let extendedKeyUsage = ServerTrustFailure("extended_key_usage")
    /// No validated path carries a pin (with invalid certificates allowed: no path in which each certificate is
    /// signed by the next links the leaf to a pinned certificate or key).
    public static let pinMismatch = ServerTrustFailure("pin_mismatch")
    /// Every pin has expired and the policy says that fails.
    public static let pinsExpired = ServerTrustFailure("pins_expired")
    /// Domain validation of a certificate that is not validated requires pinning (an unpinned, self-signed
    /// certificate can claim any name).
    public static let pinningRequired = ServerTrustFailure("pinning_required")
    /// The server sent no certificate, or one that does not parse.
    public static let malformedChain = ServerTrustFailure("malformed_chain")
    /// The server sent more certificates than ``ServerTrustEvaluator/maximumChainLength``: refused before any
    /// path building, which would otherwise grow with every certificate sent.
    public static let chainTooLong = ServerTrustFailure("chain_too_long")
    /// The host (or IP address) the client meant to reach is not a valid host name or address, so no policy can be
    /// chosen for it.
    public static let invalidHost = ServerTrustFailure("invalid_host")
    /// Policies are required for every host and none covers this one.
    public static let noPolicyForHost = ServerTrustFailure("no_policy_for_host")

    /// Whether this is a pin failure (``pinMismatch``, ``pinsExpired``), which report-only policies allow.
    public var isPinFailure: Bool { self == .pinMismatch || self == .pinsExpired }
}
