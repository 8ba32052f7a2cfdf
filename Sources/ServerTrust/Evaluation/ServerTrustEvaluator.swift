public import Foundation
// Fixed-time expiry is SPI in swift-certificates; this file is its only user in ServerTrust.
@_spi(FixedExpiryValidationTime) public import X509

/// Decides whether a server's certificate chain is trusted for a host, under per-host ``ServerTrustPolicy``s.
///
/// Path validation, expiry and server identity are swift-certificates' (`Verifier`, `RFC5280Policy`,
/// `ServerIdentityPolicy`); this type adds pinning during path building, the extended-key-usage rule, and
/// structured reasons.
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

    /// Evaluates `chain` (leaf first, as the server sent it) for `identity` at `time`.
    public func evaluate(
        chain: [Certificate],
        for identity: ServerIdentity,
        at time: Date = Date()
    ) async -> ServerTrustResult {
        guard let policy = self.policies.policy(for: identity.hostname ?? identity.ipAddress ?? "") else {
            return ServerTrustResult(failures: [.noPolicyForHost], reportedViolations: [], chain: [])
        }
        var outcome = await self.evaluate(chain: chain, identity: identity, policy: policy, time: time)
        if policy.reportOnly, !outcome.failures.isEmpty {
            self.reporter?(identity, outcome.failures)
            outcome = ServerTrustResult(failures: [], reportedViolations: outcome.failures, chain: outcome.chain)
        }
        return outcome
    }

    private func evaluate(
        chain: [Certificate],
        identity: ServerIdentity,
        policy: ServerTrustPolicy,
        time: Date
    ) async -> ServerTrustResult {
        guard let leaf = chain.first else {
            return ServerTrustResult(failures: [.malformedChain], reportedViolations: [], chain: [])
        }
        var mode = policy.mode
        let pins = policy.pins.filter { $0.isActive(at: time) }
        if mode == .publicKey, pins.isEmpty, !policy.pins.isEmpty {
            if policy.expiredPinsBehavior.fails {
                return ServerTrustResult(failures: [.pinsExpired], reportedViolations: [], chain: [])
            }
            mode = .none
        }
        let pinnedCertificates = mode == .certificate ? policy.pinnedCertificates : []
        let activePins = mode == .publicKey ? pins : []

        if policy.allowsInvalidCertificates {
            var failures: [ServerTrustFailure] = []
            if mode == .none {
                if policy.validatesDomainName { failures.append(.pinningRequired) }
            } else if !PinnedPathPolicy.containsPin(chain, pins: activePins, certificates: pinnedCertificates) {
                failures.append(.pinMismatch)
            }
            if policy.validatesDomainName, mode != .none, await !Self.namesIdentity(leaf, identity) {
                failures.append(.hostnameMismatch)
            }
            return ServerTrustResult(failures: failures, reportedViolations: [], chain: failures.isEmpty ? chain : [])
        }

        let roots = self.anchors + pinnedCertificates
        let store = self.usesSystemRoots
            ? CertificateStore.systemTrustRoots.appending(contentsOf: roots) : CertificateStore(roots)
        let intermediates = CertificateStore(chain.dropFirst())
        let pinned = mode == .none ? nil : PinnedPathPolicy(pins: activePins, certificates: pinnedCertificates)
        let host = policy.validatesDomainName
            ? ServerIdentityPolicy(serverHostname: identity.hostname, serverIP: identity.ipAddress) : nil

        if let path = await Self.path(leaf, intermediates, store, time, eku: true, host: host, pins: pinned) {
            return ServerTrustResult(failures: [], reportedViolations: [], chain: path)
        }
        if pinnedCertificates.contains(leaf) {
            // The exact leaf is pinned: it is trusted as itself, whoever issued it (swift-certificates will not
            // take a non-CA certificate as a root). It must still be valid now, allow serverAuth and name the host.
            var failures: [ServerTrustFailure] = []
            if !(leaf.notValidBefore <= time && time <= leaf.notValidAfter) { failures.append(.expired) }
            if !ServerAuthExtendedKeyUsagePolicy().allowsServerAuth(leaf) { failures.append(.extendedKeyUsage) }
            if policy.validatesDomainName, await !Self.namesIdentity(leaf, identity) {
                failures.append(.hostnameMismatch)
            }
            return ServerTrustResult(failures: failures, reportedViolations: [], chain: failures.isEmpty ? [leaf] : [])
        }

        // Diagnose: each requirement on its own, so the result names every one that fails.
        var failures: [ServerTrustFailure] = []
        let validAtTime = await Self.path(leaf, intermediates, store, time, eku: false, host: nil, pins: nil) != nil
        if !validAtTime {
            var sound = false
            for instant in Self.referenceInstants(chain) where !sound {
                sound = await Self.path(leaf, intermediates, store, instant, eku: false, host: nil, pins: nil) != nil
            }
            failures.append(sound ? .expired : .chainUntrusted)
        }
        if !ServerAuthExtendedKeyUsagePolicy().allowsServerAuth(leaf) {
            failures.append(.extendedKeyUsage)
        }
        if policy.validatesDomainName, await !Self.namesIdentity(leaf, identity) {
            failures.append(.hostnameMismatch)
        }
        if let pinned, validAtTime {
            if await Self.path(leaf, intermediates, store, time, eku: false, host: nil, pins: pinned) == nil {
                failures.append(.pinMismatch)
            }
        } else if pinned != nil,
            !PinnedPathPolicy.containsPin(chain, pins: activePins, certificates: pinnedCertificates)
        {
            failures.append(.pinMismatch)
        }
        if failures.isEmpty {
            // Each requirement holds alone but no single path meets all of them (e.g. the pinned path is not the
            // one that names the host): the pin is what fails.
            failures.append(.pinMismatch)
        }
        return ServerTrustResult(failures: failures, reportedViolations: [], chain: [])
    }

    private static func path(
        _ leaf: Certificate,
        _ intermediates: CertificateStore,
        _ roots: CertificateStore,
        _ time: Date,
        eku: Bool,
        host: ServerIdentityPolicy?,
        pins: PinnedPathPolicy?
    ) async -> [Certificate]? {
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            if eku {
                ServerAuthExtendedKeyUsagePolicy()
            } else {
                HandlesExtensionsPolicy(extensions: [.X509ExtensionID.extendedKeyUsage])
            }
            if let host { host }
            if let pins { pins }
        }
        switch await verifier.validate(leaf: leaf, intermediates: intermediates) {
        case .validCertificate(let chain): return Array(chain)
        case .couldNotValidate: return nil
        }
    }

    /// Whether the leaf names the identity (swift-certificates' server identity rules), path validity aside: the
    /// leaf is made its own root so that only the identity policy decides.
    static func namesIdentity(_ leaf: Certificate, _ identity: ServerIdentity) async -> Bool {
        var verifier = Verifier(rootCertificates: CertificateStore([leaf])) {
            ServerIdentityPolicy(serverHostname: identity.hostname, serverIP: identity.ipAddress)
            HandlesExtensionsPolicy(extensions: leaf.extensions.filter(\.critical).map(\.oid))
        }
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore()) {
            return true
        }
        return false
    }

    private static func referenceInstants(_ chain: [Certificate]) -> [Date] {
        var instants: [Date] = []
        if let start = chain.map(\.notValidBefore).max(), let end = chain.map(\.notValidAfter).min(), start <= end {
            instants.append(start)
        }
        if let leaf = chain.first {
            instants.append(Date(timeIntervalSince1970: (leaf.notValidBefore.timeIntervalSince1970 + leaf.notValidAfter.timeIntervalSince1970) / 2))
        }
        return instants
    }
}
