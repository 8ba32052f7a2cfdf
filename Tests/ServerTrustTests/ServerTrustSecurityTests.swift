import Crypto
import Foundation
@_spi(Testing) import ServerTrust
import TLSTestSupport
import Testing
import X509

/// Regression tests for the review findings: pins must be linked to the leaf by signatures, report-only relaxes pin
/// failures only, pins are never silently ignored, and the work of an evaluation is bounded.
struct ServerTrustSecurityTests {
    var pki: TLSTestPKI { get throws { try TLSTestPKI.shared.get() } }
    let host = ServerIdentity.host("api.example.test")

    func evaluate(
        _ chain: [Certificate],
        _ policy: ServerTrustPolicy,
        anchors: [Certificate]? = nil,
        identity: ServerIdentity? = nil,
        reporter: (@Sendable (ServerIdentity, [ServerTrustFailure]) -> Void)? = nil
    ) async throws -> ServerTrustResult {
        let evaluator = ServerTrustEvaluator(
            policies: ServerTrustPolicies(policy),
            anchors: try anchors ?? [pki.root.certificate],
            reporter: reporter
        )
        return await evaluator.evaluate(chain: chain, for: identity ?? self.host, at: TLSTestPKI.now)
    }

    func pin(_ certificate: Certificate) throws -> PublicKeyPin {
        try #require(PublicKeyPin(publicKeyOf: certificate))
    }

    func invalidAllowed(keys: [Certificate] = [], certificates: [Certificate] = []) throws -> ServerTrustPolicy {
        try ServerTrustPolicy(
            mode: keys.isEmpty ? .certificate : .publicKey,
            pins: try keys.map(pin),
            pinnedCertificates: certificates,
            allowsInvalidCertificates: true,
            requiresBackupPin: false
        )
    }

    /// The attacker's own leaf for the host: self-signed, or claiming the genuine intermediate as its issuer.
    func forgedLeaf(claimingIssuer issuer: Certificate? = nil) throws -> Certificate {
        try TLSTestPKI.make("Leaf", issuer: nil, ca: false, issuerName: issuer?.subject).certificate
    }

    // MARK: pins must be linked to the leaf by signatures when invalid certificates are allowed

    @Test func aForgedLeafFollowedByTheGenuinePinnedIntermediateIsRejected() async throws {
        let attack = [try forgedLeaf(), try pki.intermediate.certificate]
        let byKey = try await evaluate(attack, invalidAllowed(keys: [pki.intermediate.certificate]))
        #expect(byKey.failures == [.pinMismatch])
        #expect(!byKey.isTrusted)
        let byCertificate = try await evaluate(attack, invalidAllowed(certificates: [pki.intermediate.certificate]))
        #expect(byCertificate.failures == [.pinMismatch])
        // Without invalid certificates allowed it never got through.
        let strict = try ServerTrustPolicy(mode: .publicKey, pins: [pin(pki.intermediate.certificate)], requiresBackupPin: false)
        #expect(try await evaluate(attack, strict).failures.contains(.chainUntrusted))
    }

    @Test func aForgedLeafNamingThePinnedIssuerIsRejected() async throws {
        let attack = [try forgedLeaf(claimingIssuer: pki.intermediate.certificate), try pki.intermediate.certificate]
        #expect(try await evaluate(attack, invalidAllowed(keys: [pki.intermediate.certificate])).failures == [.pinMismatch])
    }

    @Test func aPinnedRootAppendedToAForgedLeafIsRejected() async throws {
        let attack = [try forgedLeaf(), try pki.root.certificate]
        #expect(try await evaluate(attack, invalidAllowed(certificates: [pki.root.certificate])).failures == [.pinMismatch])
        #expect(try await evaluate(attack, invalidAllowed(keys: [pki.root.certificate])).failures == [.pinMismatch])
    }

    @Test func thePinnedLeafOfAnotherHostAppendedIsRejected() async throws {
        let other = try TLSTestPKI.make("Other", issuer: pki.intermediate, ca: false, names: ["other.example.test"]).certificate
        let attack = [try forgedLeaf(), other]
        #expect(try await evaluate(attack, invalidAllowed(certificates: [other])).failures == [.pinMismatch])
        // The other host's genuine leaf, sent as it is, is linked to its pin but does not name this host.
        #expect(try await evaluate([other], invalidAllowed(certificates: [other])).failures == [.hostnameMismatch])
    }

    @Test func anUnrelatedValidChainAppendedIsRejected() async throws {
        let attack = [try forgedLeaf()] + (try pki.chain)
        #expect(try await evaluate(attack, invalidAllowed(keys: [pki.root.certificate])).failures == [.pinMismatch])
        #expect(try await evaluate(attack, invalidAllowed(keys: [pki.intermediate.certificate])).failures == [.pinMismatch])
        #expect(try await evaluate(attack, invalidAllowed(certificates: [pki.leaf.certificate])).failures == [.pinMismatch])
    }

    @Test func aGenuineChainLinkedToItsPinPassesWithInvalidCertificatesAllowed() async throws {
        // Expired, and its root is not an anchor: what "invalid" relaxes.
        let expired = try [pki.expiredLeaf.certificate, pki.intermediate.certificate]
        let result = try await evaluate(expired, invalidAllowed(keys: [pki.intermediate.certificate]), anchors: [])
        #expect(result.failures == [])
        #expect(result.chain == expired)
        let viaRoot = try await evaluate(expired, invalidAllowed(keys: [pki.root.certificate]), anchors: [pki.root.certificate])
        #expect(viaRoot.failures == [])
        #expect(viaRoot.chain.last == (try pki.root.certificate))
    }

    // MARK: report-only relaxes pin failures only

    @Test func reportOnlyStillRefusesAnUntrustedChain() async throws {
        let reports = Reports()
        let policy = try ServerTrustPolicy(mode: .publicKey, pins: [pin(pki.unrelated.certificate)], reportOnly: true, requiresBackupPin: false)
        let result = try await evaluate(
            pki.chain,
            policy,
            anchors: [pki.otherRoot.certificate],
            reporter: { identity, failures in reports.append("\(identity): \(failures)") }
        )
        #expect(result.failures == [.chainUntrusted])
        #expect(result.reportedViolations == [.pinMismatch])
        #expect(!result.isTrusted)
        #expect(reports.all == ["api.example.test: [pin_mismatch]"])
    }

    @Test func reportOnlyStillRefusesTheWrongHostAndAnExpiredChain() async throws {
        let policy = try ServerTrustPolicy(mode: .publicKey, pins: [pin(pki.unrelated.certificate)], reportOnly: true, requiresBackupPin: false)
        let wrongHost = try await evaluate(pki.chain, policy, identity: .host("evil.example.test"))
        #expect(wrongHost.failures == [.hostnameMismatch])
        #expect(wrongHost.reportedViolations == [.pinMismatch])
        let expired = try await evaluate([pki.expiredLeaf.certificate, pki.intermediate.certificate], policy)
        #expect(expired.failures == [.expired])
        #expect(!expired.isTrusted)
    }

    @Test func reportOnlyAllowsExpiredPinsAndReturnsTheValidatedPath() async throws {
        var stale = try pin(pki.unrelated.certificate)
        stale.expires = TLSTestPKI.now.addingTimeInterval(-1)
        let policy = try ServerTrustPolicy(mode: .publicKey, pins: [stale], reportOnly: true, requiresBackupPin: false)
        let result = try await evaluate(pki.chain, policy)
        #expect(result.failures == [])
        #expect(result.reportedViolations == [.pinsExpired])
        #expect(result.chain == [try pki.leaf.certificate, try pki.intermediate.certificate, try pki.root.certificate])
        // Not report-only: expired pins fail, and the chain's own failures are still listed beside them.
        let failing = try ServerTrustPolicy(mode: .publicKey, pins: [stale], requiresBackupPin: false)
        #expect(try await evaluate(pki.chain, failing, identity: .host("evil.example.test")).failures == [.pinsExpired, .hostnameMismatch])
    }

    // MARK: a pin the caller wrote is never ignored

    @Test func pinsThatTheModeWouldIgnoreAreRefusedAtConstruction() throws {
        let key = try pin(pki.leaf.certificate)
        let certificate = try pki.leaf.certificate
        let unused: (any Error) -> Bool = { ($0 as? ServerTrustError)?.code == .unusedPins }
        #expect(performing: { try ServerTrustPolicy(mode: .none, pins: [key], requiresBackupPin: false) }, throws: unused)
        #expect(performing: { try ServerTrustPolicy(mode: .none, pinnedCertificates: [certificate], requiresBackupPin: false) }, throws: unused)
        #expect(performing: { try ServerTrustPolicy(mode: .publicKey, pins: [key], pinnedCertificates: [certificate], requiresBackupPin: false) }, throws: unused)
        #expect(performing: { try ServerTrustPolicy(mode: .certificate, pins: [key], pinnedCertificates: [certificate], requiresBackupPin: false) }, throws: unused)
        #expect(throws: Never.self) { try ServerTrustPolicy(mode: .certificate, pinnedCertificates: [certificate], requiresBackupPin: false) }
    }

    // MARK: bounded work

    @Test func aChainLongerThanTheLimitIsRefusedBeforePathBuilding() async throws {
        let chain = try [pki.leaf.certificate] + Array(repeating: pki.intermediate.certificate, count: ServerTrustEvaluator.maximumChainLength)
        #expect(try await evaluate(chain, .default).failures == [.chainTooLong])
        let atLimit = try [pki.leaf.certificate] + Array(repeating: pki.intermediate.certificate, count: ServerTrustEvaluator.maximumChainLength - 1)
        #expect(try await evaluate(atLimit, .default).failures == [])
    }

    @Test func aFailingEvaluationSearchesForAPathOnce() async throws {
        let pinned = try ServerTrustPolicy(mode: .publicKey, pins: [pin(pki.unrelated.certificate)], requiresBackupPin: false)
        let expired = try [pki.expiredLeaf.certificate, pki.intermediate.certificate]
        let trusted = try await evaluate(pki.chain, .default)
        #expect(trusted.isTrusted && trusted.pathSearches == 1)
        // Expired, wrong host and unpinned at once: every reason from one search.
        let everything = try await evaluate(expired, pinned, identity: .host("evil.example.test"))
        #expect(everything.failures == [.expired, .hostnameMismatch, .pinMismatch])
        #expect(everything.pathSearches == 1)
        let crossSigned = try [pki.leaf.certificate, pki.intermediate.certificate, pki.crossIntermediate.certificate]
        let unpinned = try await evaluate(crossSigned, pinned, anchors: [pki.root.certificate, pki.otherRoot.certificate])
        #expect(unpinned.failures == [.pinMismatch])
        #expect(unpinned.pathSearches == 1)
        // No candidate path reached a policy: the Web PKI profile decides the leaf's identity from the leaf alone...
        let untrusted = try await evaluate([pki.leaf.certificate], pinned, identity: .host("evil.example.test"))
        #expect(untrusted.failures == [.chainUntrusted, .hostnameMismatch, .pinMismatch])
        #expect(untrusted.pathSearches == 1)
        // ...the RFC 5280 profile asks swift-certificates' identity policy in a second, trivial search.
        let loose = try ServerTrustPolicy(
            mode: .publicKey,
            pins: [pin(pki.unrelated.certificate)],
            requiresBackupPin: false,
            profile: .rfc5280
        )
        let untrustedLoose = try await evaluate([pki.leaf.certificate], loose, identity: .host("evil.example.test"))
        #expect(untrustedLoose.failures == [.chainUntrusted, .hostnameMismatch, .pinMismatch])
        #expect(untrustedLoose.pathSearches == 2)
    }
}
