public import X509

/// How a client decides whether to trust a server: AFNetworking's `AFSecurityPolicy`, without its flaws.
///
/// | mode | allowsInvalidCertificates | validatesDomainName | the connection is trusted when |
/// |---|---|---|---|
/// | none | false | true (default) | RFC 5280 path to an anchor, valid now, leaf names the host, EKU allows serverAuth |
/// | none | false | false | as above without the host check |
/// | none | true | true | never: `pinning_required` (an unvalidated certificate can claim any name) |
/// | none | true | false | always (explicitly insecure: for tests against throwaway servers only) |
/// | certificate | false | any | as "none", with pinned certificates as extra anchors, and a pinned certificate on the validated path; a pinned leaf is trusted as itself (valid now, serverAuth, names the host) |
/// | certificate | true | any | a pinned certificate is among those presented (+ host check when validating the domain) |
/// | publicKey | false | any | as "none", and a pinned key belongs to a certificate on the validated path; host and expiry are always checked |
/// | publicKey | true | any | a pinned key is among those presented (+ host check when validating the domain) |
///
/// Pins are matched *during* path building, so when a server sends cross-signed chains a path through a pinned
/// key is found even if another valid path exists, and a pinned certificate that is merely present but not on a
/// validated path does not count.
public struct ServerTrustPolicy: Sendable {
    /// What is pinned.
    public var mode: PinningMode
    /// Public-key pins (``PinningMode/publicKey``).
    public var pins: [PublicKeyPin]
    /// Pinned certificates (``PinningMode/certificate``); also anchors in that mode.
    public var pinnedCertificates: [Certificate]
    /// Whether the leaf must name the host. Default `true`.
    public var validatesDomainName: Bool
    /// Whether path-validation failures (untrusted, expired) are ignored. Default `false`.
    public var allowsInvalidCertificates: Bool
    /// What happens when every pin has expired.
    public var expiredPinsBehavior: ExpiredPinsBehavior
    /// Whether violations are reported (``ServerTrustEvaluator/reporter``) and then allowed.
    public var reportOnly: Bool

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
    /// - Parameter requiresBackupPin: A long-lived pinning policy needs at least two pins — the one in use and a
    ///   backup — or a key rotation locks clients out. Pass `false` to waive that rule (one-off checks, tests).
    /// - Throws: ``ServerTrustError`` with ``ServerTrustError/Code/missingBackupPin`` when a pinning mode has fewer
    ///   than two pins and the rule is not waived.
    public init(
        mode: PinningMode = .none,
        pins: [PublicKeyPin] = [],
        pinnedCertificates: [Certificate] = [],
        validatesDomainName: Bool = true,
        allowsInvalidCertificates: Bool = false,
        expiredPinsBehavior: ExpiredPinsBehavior = .fail,
        reportOnly: Bool = false,
        requiresBackupPin: Bool = true
    ) throws(ServerTrustError) {
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
    }

    /// Default evaluation only: path validation and the host name.
    public static var `default`: ServerTrustPolicy { ServerTrustPolicy(defaultEvaluation: ()) }

    private init(defaultEvaluation: Void) {
        self.mode = .none
        self.pins = []
        self.pinnedCertificates = []
        self.validatesDomainName = true
        self.allowsInvalidCertificates = false
        self.expiredPinsBehavior = .fail
        self.reportOnly = false
    }
}
