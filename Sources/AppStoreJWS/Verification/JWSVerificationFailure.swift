public import _ReceiptKitShared
public import AppStorePKI

/// Why a well-formed App Store JWS is not valid: a stable snake_case reason code.
///
/// A struct with static members, not an enum, so new reasons can be added without breaking callers' `switch`es.
/// Compare with `==` against the static members, or use ``code`` in logs and JSON (it encodes as that bare string).
public struct JWSVerificationFailure: ReasonCode {
    public let code: String
    public init(reasonCode code: String) { self.code = code }
    init(_ code: String) { self.code = code }

    /// `alg` is not `ES256` (`none`, `HS256`, `RS256`, … or absent).
    public static let algorithmNotAllowed = JWSVerificationFailure("algorithm_not_allowed")
    /// The header names another key source or critical extensions (`jwk`, `jku`, `x5u`, `crit`).
    public static let headerParameterNotAllowed = JWSVerificationFailure("header_parameter_not_allowed")
    /// `x5c` is absent or empty.
    public static let certificateChainMissing = JWSVerificationFailure("certificate_chain_missing")
    /// The signature is not 64 bytes of r ‖ s (RFC 7518 §3.4); a DER-encoded ECDSA signature is refused.
    public static let signatureMalformed = JWSVerificationFailure("signature_malformed")
    /// The signature does not verify with the leaf's P-256 key over the exact `header.payload` text.
    public static let signatureInvalid = JWSVerificationFailure("signature_invalid")
    /// No path from the leaf to Apple Root CA - G3 (pinned) or a caller's anchor.
    public static let certificateUntrusted = JWSVerificationFailure("certificate_untrusted")
    /// A path exists, but a certificate on it is outside its validity window at the trust-evaluation time.
    public static let certificateExpired = JWSVerificationFailure("certificate_expired")
    /// The leaf lacks Apple's App Store signing marker (1.2.840.113635.100.6.11.1).
    public static let signerNotAppStore = JWSVerificationFailure("signer_not_app_store")
    /// The payload is signed on a developer's machine (environment `Xcode` or `LocalTesting`) and the policy does
    /// not allow it.
    public static let localEnvironmentNotAllowed = JWSVerificationFailure("local_environment_not_allowed")
    /// The payload's bundle id differs from the expected one.
    public static let bundleIDMismatch = JWSVerificationFailure("bundle_id_mismatch")
    /// The payload's app Apple ID differs from the expected one (checked in Production, where Apple always sends it).
    public static let appAppleIDMismatch = JWSVerificationFailure("app_apple_id_mismatch")
    /// The payload's environment differs from the expected one.
    public static let environmentMismatch = JWSVerificationFailure("environment_mismatch")
    /// An OCSP responder says a certificate on the path is revoked (``JWSVerificationPolicy/revocationCheck``).
    public static let certificateRevoked = JWSVerificationFailure("certificate_revoked")
    /// An OCSP responder does not know a certificate on the path.
    public static let revocationStatusUnknown = JWSVerificationFailure("revocation_status_unknown")
    /// An OCSP response could not be used: not signed by the issuer or its responder, stale, or not about the
    /// certificate asked for.
    public static let revocationCheckFailed = JWSVerificationFailure("revocation_check_failed")
    /// An OCSP responder could not be reached: nothing is known yet, try again later (``isRetryable``).
    public static let revocationCheckUnavailable = JWSVerificationFailure("revocation_check_unavailable")

    /// Whether asking again later can succeed: only ``revocationCheckUnavailable``.
    public var isRetryable: Bool { self == .revocationCheckUnavailable }

    /// The reason code of a chain failure, as App Store signed data names it.
    public init(_ chain: ChainVerdict.Failure) {
        switch chain {
        case .untrusted, .intermediateLacksMarker: self = .certificateUntrusted
        case .signerLacksMarker: self = .signerNotAppStore
        case .outsideValidity: self = .certificateExpired
        }
    }
}
