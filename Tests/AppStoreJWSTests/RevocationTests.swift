import AppStorePKI
import AppStoreJWS
import Crypto
import Foundation
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptKitTesting
import SwiftASN1
import Testing
import X509

/// OCSP revocation checking against OpenSSL's responder (`openssl ocsp -index`), which answers each DER request the
/// verifier sends through an injected transport. (OpenSSL 3.0's `-port` mode binds every interface; tests bind
/// nothing, so the responder runs once per request with `-reqin`/`-respout` — the same responder code.)
///
/// Time: OpenSSL stamps its responses with the system clock, so these tests pass the current time as `now` — an
/// input, as everywhere — and sign the JWS at that instant.
@Suite(.enabled(if: OpenSSLOCSPResponder.executable != nil, Comment(rawValue: OpenSSLOCSPResponder.skipMessage)))
struct RevocationTests {
    let authority: JWSTestAuthority

    init() throws {
        self.authority = try JWSTestAuthority(leafOCSPURI: "http://ocsp.receiptkit.test/ocsp")
    }

    /// A responder whose index says `status` for the leaf.
    func responder(_ status: OpenSSLOCSPResponder.Status) throws -> OpenSSLOCSPResponder {
        try OpenSSLOCSPResponder(for: self.authority.leaf.certificate, status: status, issuer: self.authority.intermediate)
    }

    func verify(with transport: any OCSPTransport, now: Date = Date(), edit: (inout JWSVerificationPolicy) -> Void = { _ in })
        async throws -> JWSVerificationResult<JWSTransactionPayload>
    {
        try await self.verify(checking: JWSRevocationCheck(transport: transport), now: now, edit: edit)
    }

    /// Verifies a transaction signed at `now`, checked with `check` (a check's copies share its verdicts).
    func verify(
        checking check: JWSRevocationCheck, now: Date = Date(), signed: Date? = nil,
        edit: (inout JWSVerificationPolicy) -> Void = { _ in }
    ) async throws -> JWSVerificationResult<JWSTransactionPayload> {
        let signed = signed ?? now
        let payload = JWSSamplePayload.transaction(
            bundleIdentifier: "com.example.app", productID: "pro", transactionID: "1", purchaseDate: signed, signedDate: signed)
        let jws = try JWSMinter.sign(payload, signer: self.authority.leaf, chain: self.authority.chain)
        var policy = JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors([self.authority.root.certificate]),
            revocationCheck: check
        )
        edit(&policy)
        return try await JWSVerifier(policy: policy).verify(jws, as: JWSTransactionPayload.self, now: now)
    }

    @Test func aGoodCertificatePasses() async throws {
        let responder = try responder(.good)
        let result = try await verify(with: responder)
        #expect(result.failures == [])
        #expect(responder.requests.count == 1)  // the leaf names a responder; the intermediate does not
    }

    @Test func aRevokedCertificateIsFinal() async throws {
        let result = try await verify(with: try responder(.revoked))
        #expect(result.failures == [.certificateRevoked])
        #expect(!result.isRetryable)
    }

    @Test func anUnknownCertificateIsReported() async throws {
        let result = try await verify(with: try responder(.unknown))
        #expect(result.failures == [.revocationStatusUnknown])
        #expect(!result.isRetryable)
    }

    @Test func anUnreachableResponderIsRetryable() async throws {
        let result = try await verify(with: Unreachable())
        #expect(result.failures == [.revocationCheckUnavailable])
        #expect(result.isRetryable)
        #expect(result.certificatePath == self.authority.chain)  // the chain itself was trusted
    }

    @Test func aResponseThatIsNoLongerFreshIsUnusable() async throws {
        // The responder's answer is valid for 10 minutes from the system clock; a day later it is stale.
        let result = try await verify(with: try responder(.good), now: Date().addingTimeInterval(86_400))
        #expect(result.failures == [.revocationCheckFailed])
    }

    @Test func aResponseSignedByAnotherKeyIsUnusable() async throws {
        let other = try JWSTestAuthority()
        let forger = try OpenSSLOCSPResponder(for: self.authority.leaf.certificate, status: .revoked, issuer: other.intermediate)
        let result = try await verify(with: forger)
        // A forged "revoked" is not believed either: the check failed, nothing more.
        #expect(result.failures == [.revocationCheckFailed])
    }

    @Test func aVerdictThatOnlyLacksARevocationCheckIsRetryable() async throws {
        let now = Date()
        let payload = JWSSamplePayload.transaction(
            bundleIdentifier: "com.example.app", productID: "pro", transactionID: "1", purchaseDate: now, signedDate: now)
        let jws = try JWSMinter.sign(payload, signer: self.authority.leaf, chain: self.authority.chain)
        var policy = JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors([self.authority.root.certificate]),
            revocationCheck: JWSRevocationCheck(transport: Unreachable())
        )
        let unreachable = try await JWSVerifier(policy: policy).verify(Array(jws.utf8), kind: nil, now: now)
        #expect(unreachable.reasons == ["revocation_check_unavailable"])
        #expect(unreachable.isRetryable)
        #expect(unreachable.json.objectValue?["retryable"] == .bool(true))

        let notification = try JWSMinter.sign(
            JWSSamplePayload.notification(
                type: .test, notificationUUID: "u", bundleIdentifier: "com.example.app", signedDate: now, signedTransactionInfo: jws),
            signer: self.authority.leaf, chain: self.authority.chain)
        let nested = try await JWSVerifier(policy: policy).verifyNotification(notification, now: now)
        #expect(nested.transaction?.failures == [.revocationCheckUnavailable])
        #expect(nested.isRetryable)

        policy.bundleIdentifier = "com.example.other"  // a final failure beside it: not retryable any more
        let both = try await JWSVerifier(policy: policy).verify(Array(jws.utf8), kind: nil, now: now)
        #expect(both.reasons == ["bundle_id_mismatch"])
        #expect(!both.isRetryable)
        #expect(both.json.objectValue?["retryable"] == nil)
    }

    @Test func dataThatAlreadyFailedIsNotCheckedOnline() async throws {
        let responder = try responder(.good)
        let result = try await verify(with: responder) { $0.bundleIdentifier = "com.example.other" }
        #expect(result.failures == [.bundleIDMismatch])
        #expect(responder.requests.isEmpty)
    }

    @Test("a verdict is kept until the answer's nextUpdate, then asked for again")
    func aVerdictIsKeptUntilNextUpdate() async throws {
        // OpenSSL's answers hold for 10 minutes from the system clock.
        let responder = try responder(.good)
        let check = JWSRevocationCheck(transport: responder)
        let now = Date()
        #expect(try await verify(checking: check, now: now).failures == [])
        #expect(try await verify(checking: check, now: now.addingTimeInterval(300), signed: now).failures == [])
        #expect(responder.requests.count == 1)
        #expect(check.cache.count == 1 && check.cache.fetches == 1)
        // Past nextUpdate the kept verdict is not used: the responder is asked again. The answer was made by the
        // system clock before this instant (a loaded machine may have made it well after `now`), so 11 minutes
        // from here is past its nextUpdate whatever the delay.
        _ = try await verify(checking: check, now: Date().addingTimeInterval(660), signed: now)
        #expect(responder.requests.count == 2)
    }

    @Test("a revoked verdict is kept too; an unreachable responder is asked again every time")
    func onlyAnswersAreKept() async throws {
        let revoked = JWSRevocationCheck(transport: try responder(.revoked))
        let now = Date()
        for _ in 0..<3 { #expect(try await verify(checking: revoked, now: now).failures == [.certificateRevoked]) }
        #expect(revoked.cache.fetches == 1)
        let unreachable = Unreachable()
        let down = JWSRevocationCheck(transport: unreachable)
        for _ in 0..<3 { #expect(try await verify(checking: down, now: now).failures == [.revocationCheckUnavailable]) }
        #expect(unreachable.calls == 3 && down.cache.count == 0)
    }

    @Test("verifications of one path while its fetch runs share it: one request")
    func concurrentVerificationsShareOneFetch() async throws {
        let gate = HeldOCSPTransport(passingTo: try responder(.good))
        let check = JWSRevocationCheck(transport: gate)
        let now = Date()
        try await withThrowingTaskGroup(of: [JWSVerificationFailure].self) { group in
            for _ in 0..<8 { group.addTask { try await self.verify(checking: check, now: now).failures } }
            await gate.waitForFirstRequest()
            try await Task.sleep(for: .milliseconds(200))  // the other seven have had time to ask
            gate.release()
            for try await failures in group { #expect(failures == []) }
        }
        #expect(gate.requests == 1)
    }
}

/// A responder that cannot be reached; counts the attempts.
final class Unreachable: OCSPTransport, Sendable {
    struct ConnectionRefused: Error {}
    private let attempts = NIOLockedValueBox(0)
    var calls: Int { self.attempts.withLockedValue { $0 } }
    func response(to request: [UInt8], from uri: String) async throws -> [UInt8] {
        self.attempts.withLockedValue { $0 += 1 }
        throw ConnectionRefused()
    }
}
