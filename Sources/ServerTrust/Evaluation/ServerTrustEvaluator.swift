public import Foundation
public import X509

/// Decides whether a server's certificate chain is trusted for a host, under per-host ``ServerTrustPolicy``s.
///
/// Path building and signatures are swift-certificates' `Verifier`; the certificate rules are the policy's
/// ``ServerTrustProfile`` (Web PKI by default, or RFC 5280), checked as a `VerifierPolicy` on every candidate path
/// together with expiry, the pins and the server identity, so that pins are matched during path building. Host
/// names are compared in canonical form, and every failure has a structured reason. Each evaluation runs one path
/// search, whose findings also explain a failure.
///
/// ```swift
/// let policy = try ServerTrustPolicy(mode: .publicKey, pins: [try PublicKeyPin("sha256/…"), backup])
/// let evaluator = ServerTrustEvaluator(policies: ServerTrustPolicies(policy), anchors: [], systemRoots: true)
/// let result = await evaluator.evaluate(chain: presented, for: .host("api.example.com"))
/// ```
public struct ServerTrustEvaluator: Sendable {
    /// Policies per host.
    public var policies: ServerTrustPolicies
    /// Anchors from the caller, added to the system roots when those are used.
    public var anchors: [Certificate]
    /// Whether the system's trust roots (`/etc/ssl/certs` and the like on Linux) are anchors.
    public var usesSystemRoots: Bool
    /// Receives the violations of report-only policies (which are then allowed).
    public var reporter: (@Sendable (ServerIdentity, [ServerTrustFailure]) -> Void)?

    /// Creates an evaluator.
    public init(
        policies: ServerTrustPolicies = ServerTrustPolicies(.default),
        anchors: [Certificate] = [],
        systemRoots: Bool = false,
        reporter: (@Sendable (ServerIdentity, [ServerTrustFailure]) -> Void)? = nil
    ) {
        self.policies = policies
        self.anchors = anchors
        self.usesSystemRoots = systemRoots
        self.reporter = reporter
    }

    /// The most certificates a server may send. Path building grows with every certificate a server adds, and real
    /// servers send two to four; a longer chain is refused as ``ServerTrustFailure/chainTooLong``.
    public static let maximumChainLength = 10

    /// Evaluates `chain` (leaf first, as the server sent it) for `identity` at `time`.
    ///
    /// The host is put in canonical form first (see ``HostPattern``), so the policy chosen and the name checked are
    /// the same whichever spelling of the host the caller used.
    public func evaluate(
        chain: [Certificate],
        for identity: ServerIdentity,
        at time: Date = Date()
    ) async -> ServerTrustResult {
        guard let host = CanonicalHost(identity.hostname ?? identity.ipAddress ?? "") else {
            return ServerTrustResult(failures: [.invalidHost], reportedViolations: [], chain: [])
        }
        guard let policy = self.policies.policy(for: host) else {
            return ServerTrustResult(failures: [.noPolicyForHost], reportedViolations: [], chain: [])
        }
        let canonical: ServerIdentity = host.isAddress ? .ip(host.text) : .host(host.text)
        let outcome = await self.evaluate(chain: chain, host: host, identity: canonical, policy: policy, time: time)
        guard policy.reportOnly, outcome.failures.contains(where: \.isPinFailure) else {
            return ServerTrustResult(
                failures: outcome.failures,
                reportedViolations: [],
                chain: outcome.chain,
                pathSearches: outcome.searches
            )
        }
        // Report-only relaxes pin failures and nothing else (as TrustKit does).
        let reported = outcome.failures.filter(\.isPinFailure)
        let remaining = outcome.failures.filter { !$0.isPinFailure }
        self.reporter?(identity, reported)
        return ServerTrustResult(
            failures: remaining,
            reportedViolations: reported,
            chain: remaining.isEmpty ? outcome.pathIgnoringPins : [],
            pathSearches: outcome.searches
        )
    }

    /// A verdict before report-only is applied, with the path that would be trusted if pins were ignored.
    private struct Outcome {
        var failures: [ServerTrustFailure]
        var chain: [Certificate]
        var pathIgnoringPins: [Certificate]
        /// Verifier runs of the evaluation.
        var searches: Int
    }

    private func evaluate(
        chain: [Certificate],
        host: CanonicalHost,
        identity: ServerIdentity,
        policy: ServerTrustPolicy,
        time: Date
    ) async -> Outcome {
        var searches = 0
        guard let leaf = chain.first else {
            return Outcome(failures: [.malformedChain], chain: [], pathIgnoringPins: [], searches: searches)
        }
        guard chain.count <= Self.maximumChainLength else {
            return Outcome(failures: [.chainTooLong], chain: [], pathIgnoringPins: [], searches: searches)
        }
        var failures: [ServerTrustFailure] = []
        var mode = policy.mode
        let pins = policy.pins.filter { $0.isActive(at: time) }
        if mode == .publicKey, pins.isEmpty, !policy.pins.isEmpty {
            if policy.expiredPinsBehavior.fails { failures.append(.pinsExpired) }
            mode = .none
        }
        let pinnedCertificates = mode == .certificate ? policy.pinnedCertificates : []
        let pinned = mode == .none ? nil : PinnedPathPolicy(pins: mode == .publicKey ? pins : [], certificates: pinnedCertificates)
        let findings = PathFindings()
        let rules = ProfileRules(profile: policy.profile)
        let leafFacts = findings.facts(of: leaf)
        let names = IdentityCheck(profile: policy.profile, host: host, identity: identity, leaf: leafFacts)

        if policy.allowsInvalidCertificates {
            var path: [Certificate] = chain
            if let pinned {
                searches += 1
                if let linked = await self.linkedPath(leaf, chain, pinned) {
                    path = linked
                } else {
                    failures.append(.pinMismatch)
                }
            } else if policy.validatesDomainName, !failures.contains(.pinsExpired) {
                failures.append(.pinningRequired)
            }
            if policy.validatesDomainName, pinned != nil, await !names.leafNamesIdentity(leaf, &searches) {
                failures.append(.hostnameMismatch)
            }
            return Outcome(failures: failures, chain: failures.isEmpty ? path : [], pathIgnoringPins: [], searches: searches)
        }

        let roots = self.anchors + pinnedCertificates
        let store = self.usesSystemRoots
            ? CertificateStore.systemTrustRoots.appending(contentsOf: roots) : CertificateStore(roots)
        let trustedAsItself = roots.contains(leaf)
        let leafAllowsServerAuth = rules.leafAllowsServerAuth(leafFacts, trustedAsItself: trustedAsItself)
        if policy.validatesDomainName { findings.leafNamesIdentity = names.decided }
        var verifier = Verifier(rootCertificates: store) {
            ServerTrustPathPolicy(
                rules: rules,
                time: time,
                pins: pinned,
                identity: policy.validatesDomainName ? names.verifierPolicy : nil,
                leafAllowsServerAuth: leafAllowsServerAuth,
                findings: findings,
                presented: chain
            )
        }
        searches += 1
        if case .validCertificate(let path) = await verifier.validate(
            leaf: leaf,
            intermediates: CertificateStore(chain.dropFirst())
        ) {
            let path = Array(path)
            return Outcome(failures: failures, chain: failures.isEmpty ? path : [], pathIgnoringPins: path, searches: searches)
        }
        // Explain the failure from what the one path search saw.
        if !findings.sound {
            // A path signed up to an anchor that breaks the profile is reported by what it breaks.
            // A leaf with an empty issuer name has no issuer to be found by: say so rather than "untrusted".
            failures.append(contentsOf: findings.profileFailures ?? (leafFacts.issuerIsEmpty ? [.invalidName] : [.chainUntrusted]))
        } else if !findings.soundInTime {
            failures.append(.expired)
        }
        if !leafAllowsServerAuth, !failures.contains(.extendedKeyUsage) {
            failures.append(.extendedKeyUsage)
        }
        if policy.validatesDomainName, await !names.leafNamesIdentity(findings, leaf, &searches) {
            failures.append(.hostnameMismatch)
        }
        if let pinned, !failures.contains(.pinsExpired) {
            let pinOnPath =
                findings.soundInTime ? findings.soundInTimePinned
                : findings.sound ? findings.soundPinned
                // No sound path at all: the verdict is already chain_untrusted; the pin is only reported.
                : chain.contains { pinned.isPinned($0) }
            if !pinOnPath { failures.append(.pinMismatch) }
        }
        if failures.isEmpty {
            // Each requirement holds alone but no single path meets all of them (e.g. the pinned path is not the
            // one that is valid now): the pin is what fails.
            failures.append(pinned == nil ? .chainUntrusted : .pinMismatch)
        }
        return Outcome(failures: failures, chain: [], pathIgnoringPins: findings.pathIgnoringPins ?? [], searches: searches)
    }

    /// With invalid certificates allowed: a path from the leaf to a pinned certificate or key in which every
    /// certificate is signed by the next. Candidates for the pinned end are the certificates the server sent, the
    /// caller's anchors and the pinned certificates; only the links are verified.
    private func linkedPath(_ leaf: Certificate, _ chain: [Certificate], _ pinned: PinnedPathPolicy) async -> [Certificate]? {
        let candidates = (chain + self.anchors + pinned.certificates).filter { pinned.isPinned($0) }
        guard !candidates.isEmpty else { return nil }
        var verifier = Verifier(rootCertificates: CertificateStore(candidates)) { LinkedPinPathPolicy() }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst())) {
        case .validCertificate(let path): return Array(path)
        case .couldNotValidate: return nil
        }
    }
}
