public import _ReceiptKitShared

/// Why a server's chain is not trusted for a host: a stable snake_case reason code.
///
/// ``pinMismatch`` and ``pinsExpired`` are the *pin* failures: the only ones a report-only policy allows.
public struct ServerTrustFailure: ReasonCode {
    public let code: String
    public init(reasonCode code: String) { self.code = code }
    init(_ code: String) { self.code = code }

    /// No path from the leaf to a trusted anchor exists (at any instant the certificates are all valid).
    public static let chainUntrusted = ServerTrustFailure("chain_untrusted")
    /// A path exists, but a certificate on it is outside its validity window at the evaluation time.
    public static let expired = ServerTrustFailure("expired")
    /// The leaf does not name the host (DNS SAN) or IP address (IP SAN).
    public static let hostnameMismatch = ServerTrustFailure("hostname_mismatch")
    /// The leaf's extended key usage does not allow TLS server authentication: under ``ServerTrustProfile/webPKI``
    /// it must be present, assert serverAuth and not carry anyExtendedKeyUsage (alone or beside serverAuth), a CA
    /// that asserts EKUs must include serverAuth, and a root (a self-issued anchor) carries no EKU; under
    /// ``ServerTrustProfile/rfc5280`` an absent extension or anyExtendedKeyUsage is enough.
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

    // The certificate rules of a ``ServerTrustProfile``: a path signed up to an anchor that breaks them is reported
    // by what it breaks rather than as `chain_untrusted`.

    /// A serial number is zero, negative or longer than 20 octets.
    public static let invalidSerialNumber = ServerTrustFailure("invalid_serial_number")
    /// An extension does not decode or breaks its syntax: an empty subjectAltName or authorityInfoAccess, name
    /// constraints without subtrees or with a subtree that is no valid constraint.
    public static let malformedExtension = ServerTrustFailure("malformed_extension")
    /// A critical extension that nothing in the evaluation processes.
    public static let unknownCriticalExtension = ServerTrustFailure("unknown_critical_extension")
    /// An extension marked critical, or not, against the profile (a critical AKI, SKI or AIA; a SAN that is not
    /// critical under an empty subject; under ``ServerTrustProfile/webPKI`` also a critical SAN under a non-empty
    /// subject and a critical EKU in the leaf; under ``ServerTrustProfile/rfc5280`` name constraints that are not
    /// critical).
    public static let extensionCriticality = ServerTrustFailure("extension_criticality")
    /// An empty issuer name, a CA with an empty subject, or an empty subject without subjectAltName.
    public static let invalidName = ServerTrustFailure("invalid_name")
    /// A certificate that is not self-signed (a leaf, an intermediate, a cross-signed root as an intermediate or as
    /// the anchor) without an authorityKeyIdentifier keyIdentifier, a CA without subjectKeyIdentifier,
    /// or (``ServerTrustProfile/webPKI``) an anchor whose AKI lacks the keyIdentifier, names an issuer or serial, or
    /// differs from its own SKI.
    public static let keyIdentifier = ServerTrustFailure("key_identifier")
    /// A certificate issues without being a version-3 CA (basicConstraints cA, critical on the anchor), keyUsage
    /// of an issuer lacks keyCertSign, keyCertSign without cA, or (``ServerTrustProfile/webPKI``) the leaf is a CA.
    public static let caConstraints = ServerTrustFailure("ca_constraints")
    /// More intermediates follow a CA than its pathLenConstraint allows (in a certificate that is no CA the field is
    /// ignored).
    public static let pathLength = ServerTrustFailure("path_length")
    /// A name lies outside a permitted subtree or inside an excluded one, is of a form a constraint names but that
    /// cannot be compared, or the leaf carries name constraints.
    public static let nameConstraints = ServerTrustFailure("name_constraints")
    /// The leaf is not version 3 (``ServerTrustProfile/webPKI``).
    public static let certificateVersion = ServerTrustFailure("certificate_version")

    /// Whether this is a pin failure (``pinMismatch``, ``pinsExpired``), which report-only policies allow.
    public var isPinFailure: Bool { self == .pinMismatch || self == .pinsExpired }
}
