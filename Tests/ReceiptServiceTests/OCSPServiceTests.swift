import AppStorePKI
import AppStoreJWS
import AppStoreJWSOCSP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import Synchronization
import LedgerTestSupport
import Testing
import X509

/// `HTTPOCSPTransport` and the service's revocation checking over real HTTP on 127.0.0.1: a Hummingbird responder
/// that hands each request to OpenSSL's responder (`OpenSSLOCSPResponder.answer`), or fails on purpose.
///
/// Time: OpenSSL stamps its responses with the system clock, so these tests verify at the current time — an input,
/// as everywhere — and sign the JWS just before it.
@Suite(.enabled(if: OpenSSLOCSPResponder.executable != nil, Comment(rawValue: OpenSSLOCSPResponder.skipMessage)))
struct OCSPServiceTests {
    /// The responder behind `POST /ocsp`, set once the authority (which names the port) exists.
    final class Slot: Sendable {
        let responder = Mutex<OpenSSLOCSPResponder?>(nil)
        /// Requests `POST /ocsp` answered.
        let answered = Mutex(0)
    }

    /// Runs `body` with a responder on a free loopback port: `POST /ocsp` answers from the slot, `/down` with HTTP
    /// 500, `/huge` with 100 KiB.
    func withResponder(_ body: @Sendable (Int, Slot) async throws -> Void) async throws {
        let slot = Slot()
        let router = Router()
        router.post("/ocsp") { request, _ -> Response in
            let der = try await request.body.collect(upTo: 64 * 1024)
            guard let responder = slot.responder.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let answer = try await responder.answer(Array(buffer: der))
            slot.answered.withLock { $0 += 1 }
            return Response(
                status: .ok, headers: [.contentType: "application/ocsp-response"], body: .init(byteBuffer: ByteBuffer(bytes: answer)))
        }
        router.post("/down") { _, _ in Response(status: .internalServerError) }
        router.post("/huge") { _, _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0x30, count: 100 * 1024)))
        }
        var logger = Logger(label: "receiptkit.test.ocsp")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(port, slot)
        }
    }

    func transaction(_ authority: JWSTestAuthority, now: Date) throws -> String {
        let payload = JWSSamplePayload.transaction(
            bundleIdentifier: "com.example.app", productID: "com.example.app.pro", transactionID: "2000000000000042",
            originalTransactionID: "2000000000000001", purchaseDate: now.addingTimeInterval(-60), signedDate: now.addingTimeInterval(-1))
        return try JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain)
    }

    func verify(_ jws: String, _ authority: JWSTestAuthority, transport: HTTPOCSPTransport = HTTPOCSPTransport(), now: Date)
        async throws -> JWSVerificationResult<JWSTransactionPayload>
    {
        let policy = JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors([authority.root.certificate]),
            revocationCheck: JWSRevocationCheck(transport: transport)
        )
        return try await JWSVerifier(policy: policy).verify(jws, as: JWSTransactionPayload.self, now: now)
    }

    @Test("a good and a revoked certificate, asked over HTTP", arguments: [
        (OpenSSLOCSPResponder.Status.good, [JWSVerificationFailure]()),
        (.revoked, [.certificateRevoked]),
        (.unknown, [.revocationStatusUnknown]),
    ])
    func theResponderIsAskedOverHTTP(status: OpenSSLOCSPResponder.Status, failures: [JWSVerificationFailure]) async throws {
        try await withResponder { port, slot in
            let authority = try JWSTestAuthority(leafOCSPURI: "http://127.0.0.1:\(port)/ocsp")
            slot.responder.withLock {
                $0 = try? OpenSSLOCSPResponder(for: authority.leaf.certificate, status: status, issuer: authority.intermediate)
            }
            let now = Date()
            let result = try await verify(try transaction(authority, now: now), authority, now: now)
            #expect(result.failures == failures)
            #expect(!result.isRetryable)
        }
    }

    @Test("no usable HTTP answer is retryable", arguments: ["/down", "/huge", "/missing"])
    func noUsableAnswerIsRetryable(path: String) async throws {
        try await withResponder { port, _ in
            let authority = try JWSTestAuthority(leafOCSPURI: "http://127.0.0.1:\(port)\(path)")
            let now = Date()
            let result = try await verify(try transaction(authority, now: now), authority, now: now)
            #expect(result.failures == [.revocationCheckUnavailable])
            #expect(result.isRetryable)
        }
    }

    @Test func theTransportRefusesOtherSchemesAndClosedPorts() async throws {
        let transport = HTTPOCSPTransport(timeout: .milliseconds(200))
        let scheme = await #expect(throws: HTTPOCSPTransport.Failure.self) {
            _ = try await transport.response(to: [0x30, 0x00], from: "ldap://ocsp.example/")
        }
        #expect(scheme?.description == "OCSP responder ldap://ocsp.example/ is not an http or https URL")
        await #expect(throws: (any Error).self) {
            _ = try await transport.response(to: [0x30, 0x00], from: "http://127.0.0.1:1/ocsp")  // nothing listens
        }
    }

    @Test func theSettingsTurnTheCheckOnAndOff() throws {
        func check(
            file: String? = nil, environment: [String: String] = [:], _ adjust: (inout ServiceConfiguration) -> Void = { _ in }
        ) throws -> JWSRevocationCheck? {
            let settings = try SettingsSources.read(file: file, environment: environment, adjust).settings
            var service = ServiceConfiguration()
            adjust(&service)
            return try service.accepted(settings).jwsRevocationCheck
        }
        #expect(try check() == nil)
        #expect(try check(file: #"{"check_revocation": true}"#)?.transport is HTTPOCSPTransport)
        // A check the embedding code set is turned off by the file; the environment and the flag win over it.
        let codeCheck: (inout ServiceConfiguration) -> Void = {
            $0.verifyReceipt.jwsRevocationCheck = JWSRevocationCheck(transport: HTTPOCSPTransport())
        }
        #expect(try check(codeCheck)?.transport is HTTPOCSPTransport)
        #expect(try check(file: #"{"check_revocation": false}"#, codeCheck) == nil)
        #expect(try check(file: #"{"check_revocation": false}"#, environment: ["RECEIPTKIT_CHECK_REVOCATION": "true"])?.transport is HTTPOCSPTransport)
        #expect(try check(file: #"{"check_revocation": false}"#) { $0.checksRevocation = true }?.transport is HTTPOCSPTransport)
        let wrong = SettingsSources.refusal(file: #"{"check_revocation": "yes"}"#)
        #expect(wrong?.code == .malformedFile)
        #expect(wrong?.reason.hasSuffix("check_revocation must be true or false") == true)
    }

    @Test("a notification is deferred (503) while the responder is down, then recorded; a kept verdict until nextUpdate", arguments: LedgerBackend.available)
    func aNotificationWaitsForTheResponder(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            try await withResponder { port, slot in
                let authority = try JWSTestAuthority(leafOCSPURI: "http://127.0.0.1:\(port)/ocsp")
                var configuration = VerifyReceiptConfiguration()
                configuration.anchors = AppStoreTrustAnchors([authority.root.certificate])
                configuration.jwsRevocationCheck = JWSRevocationCheck(transport: HTTPOCSPTransport())
                let verifier = try ServiceComponents(configuration: configuration, ledger: ledger, now: { Date() }).verifier
                let now = Date()
                let uuid = UUID().uuidString.lowercased()
                let payload = JWSSamplePayload.notification(
                    type: .subscribed, notificationUUID: uuid, bundleIdentifier: "com.example.app", appAppleID: 1,
                    environment: .production, signedDate: now.addingTimeInterval(-1),
                    signedTransactionInfo: try transaction(authority, now: now), signedRenewalInfo: nil)
                let jws = try JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain)
                let body = JSONValue.object(["signedPayload": .string(jws)]).serialized
                let query = LedgerQuery(
                    environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["2000000000000001"])

                // No responder yet: the route answers 503 itself.
                let deferred = await verifier.answerNotification(body: body)
                #expect(deferred.httpStatus == 503)
                #expect(deferred.outcome == "unavailable")
                #expect(deferred.reasons.map(\.code) == ["revocation_check_unavailable", "transaction.revocation_check_unavailable"])
                #expect(try await ledger.snapshot(matching: query).transactions.isEmpty)

                slot.responder.withLock {
                    $0 = try? OpenSSLOCSPResponder(for: authority.leaf.certificate, status: .good, issuer: authority.intermediate)
                }
                let recorded = await verifier.answerNotification(body: body)
                #expect(recorded.httpStatus == 200)
                #expect(recorded.outcome == "recorded")
                #expect(try await ledger.snapshot(matching: query).transactions.map(\.transactionIdentifier) == ["2000000000000042"])

                let revoked = try OpenSSLOCSPResponder(for: authority.leaf.certificate, status: .revoked, issuer: authority.intermediate)
                slot.responder.withLock { $0 = revoked }
                func another() throws -> [UInt8] {
                    JSONValue.object(["signedPayload": .string(try JWSMinter.sign(
                        JWSSamplePayload.notification(
                            type: .subscribed, notificationUUID: UUID().uuidString.lowercased(), bundleIdentifier: "com.example.app",
                            appAppleID: 1, environment: .production, signedDate: now, signedTransactionInfo: nil, signedRenewalInfo: nil),
                        signer: authority.leaf, chain: authority.chain))]).serialized
                }
                // While the good answer holds (10 minutes), its verdict is kept: the responder is not asked.
                let asked = slot.answered.withLock { $0 }
                #expect(await verifier.answerNotification(body: try another()).httpStatus == 200)
                #expect(slot.answered.withLock { $0 } == asked)
                // A service started anew asks, and refuses.
                configuration.jwsRevocationCheck = JWSRevocationCheck(transport: HTTPOCSPTransport())
                let restarted = try ServiceComponents(configuration: configuration, ledger: ledger, now: { Date() }).verifier
                let refused = await restarted.answerNotification(body: try another())
                #expect(refused.httpStatus == 422)
                #expect(refused.reasons.map(\.code) == ["certificate_revoked"])
                #expect(slot.answered.withLock { $0 } == asked + 1)
            }
        }
    }
    @Test("a notification waiting for its OCSP responder gives its validation slot back: receipts are answered meanwhile")
    func revocationWaitsLeaveTheValidationLimiter() async throws {
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            let authority = try JWSTestAuthority(leafOCSPURI: "http://ocsp.receiptkit.test/ocsp")
            let responder = HeldOCSPTransport()
            var configuration = VerifyReceiptConfiguration()
            configuration.anchors = AppStoreTrustAnchors([authority.root.certificate, try ServiceTestPKI.ca.root.certificate])
            configuration.maximumConcurrentValidations = 1
            configuration.jwsRevocationCheck = JWSRevocationCheck(transport: responder)
            let verifier = try ServiceComponents(configuration: configuration, ledger: ledger, now: { Date() }).verifier
            let now = Date()
            let payload = JWSSamplePayload.notification(
                type: .subscribed, notificationUUID: UUID().uuidString.lowercased(), bundleIdentifier: "com.example.app",
                appAppleID: 1, environment: .production, signedDate: now.addingTimeInterval(-1),
                signedTransactionInfo: nil, signedRenewalInfo: nil)
            let body = JSONValue.object(["signedPayload": .string(try JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain))])
                .serialized
            let pending = Task { await verifier.answerNotification(body: body) }
            await responder.waitForFirstRequest()
            // The only validation slot: the notification holds none while it waits, so a receipt is validated now
            // (with the slot held across the wait, it would queue until the responder answers).
            #expect(verifier.limiter.running == 0)
            let receiptBody = JSONValue.object(["receipt-data": .string(Data(try ServiceTestPKI.mint(ServiceTestPKI.receipt())).base64EncodedString())])
                .serialized
            let receipt = Task { await verifier.answer(body: receiptBody, endpoint: .production) }
            let answered = await withTaskGroup(of: Bool.self) { group in
                group.addTask { _ = await receipt.value; return true }
                group.addTask {
                    // Not answered within a minute: let the notification fail, so the receipt (and the test) ends.
                    try? await Task.sleep(for: .seconds(60))
                    responder.release()
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            #expect(answered, "the receipt waited for the notification's OCSP responder")
            responder.release()
            let deferred = await pending.value
            #expect(deferred.httpStatus == 503)
            #expect(deferred.reasons.map(\.code) == ["revocation_check_unavailable"])
            #expect(await receipt.value.status == .valid)
        }
    }
}
