/// Which certificate rules a path must meet, beyond signatures, validity and pins: the Web PKI's (strict, the
/// default for HTTPS) or RFC 5280's (looser, for private PKIs).
///
/// | rule | reason | ``webPKI`` | ``rfc5280`` |
/// |---|---|---|---|
/// | serial numbers positive, non-zero, at most 20 octets | `invalid_serial_number` | ✓ | ✓ |
/// | extensions decode; SAN and AIA not empty; name constraints well-formed and not both empty | `malformed_extension` | ✓ | ✓ |
/// | no critical extension that nothing here processes | `unknown_critical_extension` | ✓ | ✓ |
/// | AKI, SKI and AIA not critical; SAN critical when the subject is empty | `extension_criticality` | ✓ | ✓ |
/// | SAN not critical when the subject is not empty; the leaf's EKU not critical | `extension_criticality` | ✓ | – |
/// | name constraints critical (the Web PKI applies non-critical ones too) | `extension_criticality` | – | ✓ |
/// | issuer names not empty; CA subjects not empty; an empty subject needs a SAN | `invalid_name` | ✓ | ✓ |
/// | every certificate but a self-signed one carries an AKI keyIdentifier (a cross-signed root too, as an intermediate or as the anchor); every CA carries an SKI | `key_identifier` | ✓ | ✓ |
/// | an anchor's AKI has a keyIdentifier (its SKI when self-issued) and no issuer or serial | `key_identifier` | ✓ | – |
/// | issuers are v3 CAs (critical basicConstraints on the anchor); keyCertSign only with cA, and on every issuer with keyUsage | `ca_constraints` | ✓ | ✓ |
/// | the leaf is not a CA and lacks keyCertSign; a version-1 anchor never issues | `ca_constraints` | ✓ | – |
/// | pathLenConstraint (ignored in a certificate that is no CA) | `path_length` | ✓ | ✓ |
/// | name constraints (DNS, IP, directory name matched as RFC 5280 §7.1 says, email, URI; self-issued intermediates exempt; never in a leaf) | `name_constraints` | ✓ | ✓ |
/// | the leaf's EKU asserts serverAuth | `extended_key_usage` | required, and anyExtendedKeyUsage refused (alone or beside serverAuth) | absent, serverAuth or any (in any company) |
/// | a CA that asserts EKUs includes serverAuth; a root (self-issued anchor) carries no EKU | `extended_key_usage` | ✓ | – |
/// | the leaf is version 3 | `certificate_version` | ✓ | – |
/// | host names: SAN only, wildcard as a whole left-most label over two or more labels, IPs only in iPAddress SANs | `hostname_mismatch` | ✓ | swift-certificates' rules (CN when no SAN) |
///
/// A certificate trusted as itself (the leaf is an anchor or a pinned certificate: a self-signed server) was never
/// issued under a CA's profile: it is held to the leaf rules that concern it (names, extensions, EKU as in
/// ``rfc5280``) but not to the CA rules.
public struct ServerTrustProfile: Sendable, Hashable, CustomStringConvertible {
    let isWebPKI: Bool

    /// The CA/Browser Forum profile as browsers and rustls-webpki enforce it. The default.
    public static let webPKI = ServerTrustProfile(isWebPKI: true)
    /// RFC 5280 path validation without the Web PKI's extra requirements, for private PKIs.
    public static let rfc5280 = ServerTrustProfile(isWebPKI: false)

    /// `webpki` or `rfc5280`.
    public var description: String { self.isWebPKI ? "webpki" : "rfc5280" }

    /// Parses `webpki` or `rfc5280` (case-insensitive).
    public init?(_ name: String) {
        switch name.lowercased() {
        case "webpki": self = .webPKI
        case "rfc5280": self = .rfc5280
        default: return nil
        }
    }

    private init(isWebPKI: Bool) {
        self.isWebPKI = isWebPKI
    }
}
