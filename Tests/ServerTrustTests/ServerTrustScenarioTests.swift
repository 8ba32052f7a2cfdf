import Foundation
import ServerTrust
import TLSTestSupport
import Testing
import X509

/// The scenario list of AFNetworking's and Alamofire's server-trust suites, with freshly generated certificates and
/// a pinned clock. Each negative case asserts its exact reason.
struct ServerTrustScenarioTests {
    var pki: TLSTestPKI { get throws { try TLSTestPKI.shared.get() } }
    let host = ServerIdentity.host("api.example.test")

    func evaluate(
        _ chain: [Certificate],
        _ policy: ServerTrustPolicy = .default,
        anchors: [Certificate]? = nil,
        identity: ServerIdentity? = nil
    ) async throws -> ServerTrustResult {
        let evaluator = ServerTrustEvaluator(
            policies: ServerTrustPolicies(policy),
            anchors: try anchors ?? [pki.root.certificate]
        )
        return await evaluator.evaluate(chain: chain, for: identity ?? self.host, at: TLSTestPKI.now)
    }

    func pinning(_ mode: PinningMode, pins: [PublicKeyPin] = [], certificates: [Certificate] = [], allowInvalid: Bool = false, domain: Bool = true) throws -> ServerTrustPolicy {
        try ServerTrustPolicy(
            mode: mode,
            pins: pins,
            pinnedCertificates: certificates,
            validatesDomainName: domain,
            allowsInvalidCertificates: allowInvalid,
            requiresBackupPin: false
        )
    }

    func pin(_ certificate: Certificate) throws -> PublicKeyPin {
        try #require(PublicKeyPin(publicKeyOf: certificate))
    }

    // MARK: default evaluation

    @Test func defaultTrustAcceptsAValidChain() async throws {
        let result = try await evaluate(pki.chain)
        #expect(result.failures == [])
        #expect(result.chain == [try pki.leaf.certificate, try pki.intermediate.certificate, try pki.root.certificate])
    }

    @Test func defaultTrustRejectsAnUnknownRoot() async throws {
        #expect(try await evaluate(pki.chain, anchors: [pki.otherRoot.certificate]).failures == [.chainUntrusted])
    }

    @Test func defaultTrustRejectsAMissingIntermediate() async throws {
        #expect(try await evaluate([pki.leaf.certificate]).failures == [.chainUntrusted])
    }

    @Test func defaultTrustRejectsAnExpiredLeaf() async throws {
        let result = try await evaluate([pki.expiredLeaf.certificate, pki.intermediate.certificate])
        #expect(result.failures == [.expired])
    }

    @Test func defaultTrustRejectsTheWrongHost() async throws {
        let result = try await evaluate(pki.chain, identity: .host("evil.example.test"))
        #expect(result.failures == [.hostnameMismatch])
        #expect(try await evaluate(pki.chain, identity: .host("localhost")).failures == [])
        #expect(try await evaluate(pki.chain, identity: .ip("127.0.0.1")).failures == [])
        #expect(try await evaluate(pki.chain, identity: .ip("127.0.0.2")).failures == [.hostnameMismatch])
    }

    @Test func domainValidationCanBeTurnedOff() async throws {
        let policy = try ServerTrustPolicy(validatesDomainName: false)
        #expect(try await evaluate(pki.chain, policy, identity: .host("evil.example.test")).failures == [])
    }

    @Test func extendedKeyUsageMustAllowServerAuth() async throws {
        // Both leaves mark their EKU critical, which the Web PKI refuses of an end-entity; RFC 5280 allows it.
        let loose = ServerTrustPolicy.default(profile: .rfc5280)
        let client = try await evaluate([pki.clientAuthLeaf.certificate, pki.intermediate.certificate], loose)
        #expect(client.failures == [.extendedKeyUsage])
        let server = try await evaluate([pki.criticalServerAuthLeaf.certificate, pki.intermediate.certificate], loose)
        #expect(server.failures == [])
        let web = try await evaluate([pki.criticalServerAuthLeaf.certificate, pki.intermediate.certificate])
        #expect(web.failures == [.extensionCriticality])
        let clientWeb = try await evaluate([pki.clientAuthLeaf.certificate, pki.intermediate.certificate])
        #expect(clientWeb.failures == [.extensionCriticality, .extendedKeyUsage])
    }

    // MARK: certificate pinning

    @Test(arguments: ["leaf", "intermediate", "root"])
    func certificatePinningOfEachLevel(level: String) async throws {
        let pinned = try [
            "leaf": pki.leaf.certificate, "intermediate": pki.intermediate.certificate, "root": pki.root.certificate,
        ][level].map { $0 }
        let policy = try pinning(.certificate, certificates: [try #require(pinned)])
        #expect(try await evaluate(pki.chain, policy).failures == [])
    }

    @Test func certificatePinningRejectsAnUnpinnedChain() async throws {
        let policy = try pinning(.certificate, certificates: [pki.unrelated.certificate])
        #expect(try await evaluate(pki.chain, policy).failures == [.pinMismatch])
    }

    @Test func pinnedCertificatesAnchorSelfSignedServers() async throws {
        let selfSigned = try pki.selfSigned.certificate
        #expect(try await evaluate([selfSigned]).failures == [.chainUntrusted])
        let policy = try pinning(.certificate, certificates: [selfSigned])
        #expect(try await evaluate([selfSigned], policy, anchors: []).failures == [])
        let wrongHost = try await evaluate([selfSigned], policy, anchors: [], identity: .host("evil.example.test"))
        #expect(wrongHost.failures == [.hostnameMismatch])
    }

    @Test func aPinnedLeafIsTrustedAsItselfButStillChecked() async throws {
        // No anchors at all: the pinned leaf (not a CA) is the whole trust decision.
        let policy = try pinning(.certificate, certificates: [pki.leaf.certificate])
        let result = try await evaluate([pki.leaf.certificate], policy, anchors: [])
        #expect(result.failures == [])
        #expect(result.chain == [try pki.leaf.certificate])
        #expect(try await evaluate([pki.leaf.certificate], policy, anchors: [], identity: .host("evil.example.test")).failures == [.hostnameMismatch])
        let expired = try pinning(.certificate, certificates: [pki.expiredLeaf.certificate])
        #expect(try await evaluate([pki.expiredLeaf.certificate], expired, anchors: []).failures == [.expired])
    }

    @Test func aPinnedCertificateThatIsPresentButOffThePathDoesNotCount() async throws {
        // The server also sends the unrelated certificate; it is pinned, but no validated path goes through it.
        let policy = try pinning(.certificate, certificates: [pki.unrelated.certificate])
        let chain = try pki.chain + [pki.unrelated.certificate]
        #expect(try await evaluate(chain, policy).failures == [.pinMismatch])
    }

    // MARK: public-key pinning

    @Test(arguments: ["leaf", "intermediate", "root"])
    func publicKeyPinningOfEachLevel(level: String) async throws {
        let certificate = try [
            "leaf": pki.leaf.certificate, "intermediate": pki.intermediate.certificate, "root": pki.root.certificate,
        ][level].map { $0 }
        let policy = try pinning(.publicKey, pins: [pin(try #require(certificate))])
        #expect(try await evaluate(pki.chain, policy).failures == [])
    }

    @Test func publicKeyPinningRejectsAnUnpinnedChain() async throws {
        let policy = try pinning(.publicKey, pins: [pin(pki.unrelated.certificate)])
        #expect(try await evaluate(pki.chain, policy).failures == [.pinMismatch])
    }

    @Test func publicKeyPinningNeverSkipsExpiryOrHostUnlessInvalidIsAllowed() async throws {
        let policy = try pinning(.publicKey, pins: [pin(pki.expiredLeaf.certificate)])
        let expired = try [pki.expiredLeaf.certificate, pki.intermediate.certificate]
        #expect(try await evaluate(expired, policy).failures == [.expired])
        #expect(try await evaluate(expired, policy, identity: .host("evil.example.test")).failures == [.expired, .hostnameMismatch])
        let lenient = try pinning(.publicKey, pins: [pin(pki.expiredLeaf.certificate)], allowInvalid: true)
        #expect(try await evaluate(expired, lenient).failures == [])
        #expect(try await evaluate(expired, lenient, identity: .host("evil.example.test")).failures == [.hostnameMismatch])
    }

    @Test func pinsAreMatchedDuringPathBuildingAcrossCrossSignedChains() async throws {
        // The server sends both intermediates; both roots are trusted. Only the path through Root B holds the pin.
        let chain = try [pki.leaf.certificate, pki.intermediate.certificate, pki.crossIntermediate.certificate]
        let anchors = try [pki.root.certificate, pki.otherRoot.certificate]
        let policy = try pinning(.publicKey, pins: [pin(pki.otherRoot.certificate)])
        let result = try await evaluate(chain, policy, anchors: anchors)
        #expect(result.failures == [])
        #expect(result.chain.last == (try pki.otherRoot.certificate))
    }

    // MARK: invalid certificates allowed

    @Test func allowingInvalidCertificatesWithoutPinningCannotValidateTheDomain() async throws {
        let selfSigned = try pki.selfSigned.certificate
        let insecureButDomain = try pinning(.none, allowInvalid: true, domain: true)
        #expect(try await evaluate([selfSigned], insecureButDomain, anchors: []).failures == [.pinningRequired])
        let insecure = try pinning(.none, allowInvalid: true, domain: false)
        #expect(try await evaluate([selfSigned], insecure, anchors: []).failures == [])
    }

    @Test func allowingInvalidCertificatesStillRequiresThePin() async throws {
        let selfSigned = try pki.selfSigned.certificate
        let pinned = try pinning(.certificate, certificates: [selfSigned], allowInvalid: true)
        #expect(try await evaluate([selfSigned], pinned, anchors: []).failures == [])
        let other = try pinning(.certificate, certificates: [pki.unrelated.certificate], allowInvalid: true)
        #expect(try await evaluate([selfSigned], other, anchors: []).failures == [.pinMismatch])
    }

    // MARK: pin lifecycle and reporting

    @Test func pinningPoliciesNeedABackupPin() throws {
        let one = try pin(pki.leaf.certificate)
        #expect { try ServerTrustPolicy(mode: .publicKey, pins: [one]) } throws: { ($0 as? ServerTrustError)?.code == .missingBackupPin }
        #expect(throws: Never.self) { try ServerTrustPolicy(mode: .publicKey, pins: [one, try self.pin(self.pki.root.certificate)]) }
    }

    @Test func expiredPinsFailOrFallBackAsConfigured() async throws {
        var stale = try pin(pki.unrelated.certificate)
        stale.expires = TLSTestPKI.now.addingTimeInterval(-1)
        let failing = try ServerTrustPolicy(mode: .publicKey, pins: [stale], requiresBackupPin: false)
        #expect(try await evaluate(pki.chain, failing).failures == [.pinsExpired])
        let fallback = try ServerTrustPolicy(
            mode: .publicKey,
            pins: [stale],
            expiredPinsBehavior: .fallBackToDefaultEvaluation,
            requiresBackupPin: false
        )
        #expect(try await evaluate(pki.chain, fallback).failures == [])
        // One live pin is enough; the expired one simply stops counting.
        var live = try pin(pki.root.certificate)
        live.expires = TLSTestPKI.now.addingTimeInterval(86_400)
        let mixed = try ServerTrustPolicy(mode: .publicKey, pins: [stale, live])
        #expect(try await evaluate(pki.chain, mixed).failures == [])
    }

    @Test func reportOnlyPoliciesReportAndAllow() async throws {
        let reports = Reports()
        let policy = try ServerTrustPolicy(mode: .publicKey, pins: [pin(pki.unrelated.certificate)], reportOnly: true, requiresBackupPin: false)
        let evaluator = ServerTrustEvaluator(
            policies: ServerTrustPolicies(policy),
            anchors: [try pki.root.certificate],
            reporter: { identity, failures in reports.append("\(identity): \(failures)") }
        )
        let result = await evaluator.evaluate(chain: try pki.chain, for: host, at: TLSTestPKI.now)
        #expect(result.isTrusted)
        #expect(result.reportedViolations == [.pinMismatch])
        #expect(reports.all == ["api.example.test: [pin_mismatch]"])
    }

    // MARK: per-host policies

    @Test func hostPatternsMatchAsDocumented() throws {
        let exact = try HostPattern("api.example.com")
        let one = try HostPattern("*.example.com")
        let any = try HostPattern("**.example.com")
        #expect(exact.matches("API.example.com."))
        #expect(!exact.matches("x.api.example.com"))
        #expect(one.matches("api.example.com"))
        #expect(!one.matches("example.com"))
        #expect(!one.matches("a.b.example.com"))
        #expect(any.matches("example.com"))
        #expect(any.matches("a.b.example.com"))
        #expect(!any.matches("badexample.com"))
        for bad in ["", "*.", "a..b", "*.*.example.com", "api.*.com"] {
            #expect { try HostPattern(bad) } throws: { ($0 as? ServerTrustError)?.code == .malformedHostPattern }
        }
    }

    @Test func theMostSpecificPolicyWinsAndUncoveredHostsCanBeRefused() async throws {
        let strict = try pinning(.publicKey, pins: [pin(pki.unrelated.certificate)])
        let relaxed = ServerTrustPolicy.default
        let policies = ServerTrustPolicies(
            [(try HostPattern("**.example.test"), strict), (try HostPattern("api.example.test"), relaxed)],
            requiresPolicyForEveryHost: true
        )
        let evaluator = ServerTrustEvaluator(policies: policies, anchors: [try pki.root.certificate])
        #expect(await evaluator.evaluate(chain: try pki.chain, for: .host("api.example.test"), at: TLSTestPKI.now).failures == [])
        #expect(await evaluator.evaluate(chain: try pki.chain, for: .host("www.example.test"), at: TLSTestPKI.now).failures == [.pinMismatch])
        #expect(await evaluator.evaluate(chain: try pki.chain, for: .host("localhost"), at: TLSTestPKI.now).failures == [.noPolicyForHost])
    }

    @Test func systemRootsAddToCallerAnchorsWithoutTrustingTestRoots() async throws {
        let systemOnly = ServerTrustEvaluator(systemRoots: true)
        #expect(await systemOnly.evaluate(chain: try pki.chain, for: host, at: TLSTestPKI.now).failures == [.chainUntrusted])
        let both = ServerTrustEvaluator(anchors: [try pki.root.certificate], systemRoots: true)
        #expect(await both.evaluate(chain: try pki.chain, for: host, at: TLSTestPKI.now).failures == [])
    }

    @Test func anEmptyChainIsMalformed() async throws {
        #expect(try await evaluate([]).failures == [.malformedChain])
    }
}

final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
