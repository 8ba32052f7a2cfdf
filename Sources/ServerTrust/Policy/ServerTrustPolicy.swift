public import X509

/// How a client decides whether to trust a server: AFNetworking's `AFSecurityPolicy`, without its flaws.
///
/// | mode | allowsInvalidCertificates | validatesDomainName | the connection is trusted when |
/// |---|---|---|---|
/// | none | false | true (default) | a path to an anchor meets the ``profile`` (Web PKI by default), valid now, leaf names the host, EKU allows serverAuth |
/// | none | false | false | as above without the host check |
/// | none | true | true | never: `pinning_required` (an unvalidated certificate can claim any name) |
/// | none | true | false | always (explicitly insecure: for tests against throwaway servers only) |
/// | certificate | false | any | as "none", with pinned certificates as extra anchors, and a pinned certificate on the validated path; a pinned leaf is trusted as itself (valid now, serverAuth, names the host) |
/// | certificate | true | any | a path in which each certificate is signed by the next links the leaf to a pinned certificate (+ host check when validating the domain) |
/// | publicKey | false | any | as "none", and a pinned key belongs to a certificate on the validated path; host and expiry are always checked |
/// | publicKey | true | any | a path in which each certificate is signed by the next links the leaf to a certificate with a pinned key (+ host check when validating the domain) |
///
/// Pins are matched *during* path building, so when a server sends cross-signed chains a path through a pinned
/// key is found even if another valid path exists, and a pinned certificate that is merely present but not on a
/// validated path does not count. Allowing invalid certificates relaxes expiry, anchors and name constraints — never
/// the signatures that link the leaf to the pin, so appending a genuine pinned certificate to a forged leaf does not
/// pass.
///
/// A ``reportOnly`` policy allows *pin* failures (`pin_mismatch`, `pins_expired`) and reports them; every other
/// failure (`chain_untrusted`, `expired`, `hostname_mismatch`, …) still refuses the connection, so rolling out pins
/// in report-only mode never turns TLS validation off.
public struct ServerTrustPolicy: Sendable {
    /// What is pinned.
    public let mode: PinningMode
    /// Public-key pins (``PinningMode/publicKey``).
    public let pins: [PublicKeyPin]
    /// Pinned certificates (``PinningMode/certificate``); also anchors in that mode.
    public let pinnedCertificates: [Certificate]
    /// Whether the leaf must name the host. Default `true`.
    public let validatesDomainName: Bool
    /// Whether path-validation failures (untrusted, expired) are ignored. Default `false`.
    public let allowsInvalidCertificates: Bool
    /// What happens when every pin has expired.
    public let expiredPinsBehavior: ExpiredPinsBehavior
    /// Whether pin failures are reported (``ServerTrustEvaluator/reporter``) and then allowed; every other failure
    /// still refuses the connection.
    public let reportOnly: Bool
    /// The certificate rules every path must meet: ``ServerTrustProfile/webPKI`` (default) or
    /// ``ServerTrustProfile/rfc5280``.
    public let profile: ServerTrustProfile

    /// What to do once all pins have expired.
    public struct ExpiredPinsBehavior: Sendable, Hashable {
        let fails: Bool
        /// Evaluate as if no pinning were configured.
        public static let fallBackToDefaultEvaluation = ExpiredPinsBehavior(fails: false)
        /// Refuse the connection with `pins_expired`.
        public static let fail = ExpiredPinsBehavior(fails: true)
    }

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - mode: What is pinned.
    ///   - pins: Public-key pins, for ``PinningMode/publicKey``.
    ///   - pinnedCertificates: Pinned certificates, for ``PinningMode/certificate`` (also anchors in that mode).
    ///   - validatesDomainName: Whether the leaf must name the host.
    ///   - allowsInvalidCertificates: Whether expiry, anchors and the profile's rules are relaxed (the pin must
    ///     still be linked to the leaf by signatures).
    ///   - expiredPinsBehavior: What happens once every pin has expired.
    ///   - reportOnly: Whether pin failures are reported and allowed.
    ///   - requiresBackupPin: A long-lived pinning policy needs at least two pins — the one in use and a
    ///     backup — or a key rotation locks clients out. Pass `false` to waive that rule (one-off checks, tests).
    ///   - profile: The certificate rules every path must meet; ``ServerTrustProfile/webPKI`` by default.
    /// - Throws: ``ServerTrustError`` with ``ServerTrustError/Code/missingBackupPin`` when a pinning mode has fewer
    ///   than two pins and the rule is not waived; with ``ServerTrustError/Code/unusedPins`` when pins are given that
    ///   `mode` would not use (any pin with ``PinningMode/none``, certificates with ``PinningMode/publicKey``, keys
    ///   with ``PinningMode/certificate``).
    public init(
        mode: PinningMode = .none,
        pins: [PublicKeyPin] = [],
        pinnedCertificates: [Certificate] = [],
        validatesDomainName: Bool = true,
        allowsInvalidCertificates: Bool = false,
        expiredPinsBehavior: ExpiredPinsBehavior = .fail,
        reportOnly: Bool = false,
        requiresBackupPin: Bool = true,
        profile: ServerTrustProfile = .webPKI
    ) throws(ServerTrustError) {
        let unused =
            mode == .none ? pins.count + pinnedCertificates.count
            : mode == .publicKey ? pinnedCertificates.count : pins.count
        if unused > 0 {
            throw ServerTrustError(
                .unusedPins,
                "\(unused) pin(s) that \(mode) pinning would ignore: pins need a matching mode (certificates with certificate, keys with public-key)"
            )
        }
        let count = mode == .publicKey ? pins.count : mode == .certificate ? pinnedCertificates.count : 2
        if requiresBackupPin, count < 2 {
            throw ServerTrustError(
                .missingBackupPin,
                "\(mode) pinning needs at least two pins (a backup for key rotation); pass requiresBackupPin: false to waive"
            )
        }
        self.mode = mode
        self.pins = pins
        self.pinnedCertificates = pinnedCertificates
        self.validatesDomainName = validatesDomainName
        self.allowsInvalidCertificates = allowsInvalidCertificates
        self.expiredPinsBehavior = expiredPinsBehavior
        self.reportOnly = reportOnly
        self.profile = profile
    }

    /// Default evaluation only: path validation under the Web PKI profile and the host name.
    public static var `default`: ServerTrustPolicy { ServerTrustPolicy(defaultEvaluation: .webPKI) }

    /// Default evaluation under `profile`: path validation and the host name.
    public static func `default`(profile: ServerTrustProfile) -> ServerTrustPolicy {
        ServerTrustPolicy(defaultEvaluation: profile)
    }

    private init(defaultEvaluation profile: ServerTrustProfile) {
        self.mode = .none
        self.pins = []
        self.pinnedCertificates = []
        self.validatesDomainName = true
        self.allowsInvalidCertificates = false
        self.expiredPinsBehavior = .fail
        self.reportOnly = false
        self.profile = profile
    }
}
