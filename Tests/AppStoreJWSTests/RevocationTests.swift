import AppStoreJWS
import Crypto
import Foundation
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
@Suite(.enabled(if: OpenSSLResponder.path != nil, Comment(rawValue: OpenSSLResponder.skipMessage)))
struct RevocationTests {
    enum Status {
        case good, revoked, unknown
    }

    let authority: JWSTestAuthority
    let directory: URL

    init() throws {
        self.authority = try JWSTestAuthority(leafOCSPURI: "http://ocsp.receiptkit.test/ocsp")
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-ocsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        try Data(try self.authority.intermediate.certificate.serializeAsPEM().pemString.utf8)
            .write(to: self.directory.appendingPathComponent("issuer.pem"))
        try Data(self.authority.intermediate.privateKey.pemRepresentation.utf8)
            .write(to: self.directory.appendingPathComponent("issuer.key.pem"))
    }

    /// A responder whose index says `status` for the leaf.
    func responder(_ status: Status) throws -> OpenSSLResponder {
        let serial = self.authority.leaf.certificate.serialNumber.bytes.map { String(format: "%02X", $0) }.joined()
        let line: String
        switch status {
        case .good: line = "V\t491231235959Z\t\t\(serial)\tunknown\t/CN=ReceiptKit Test App Store Signing"
        case .revoked: line = "R\t491231235959Z\t250101000000Z,keyCompromise\t\(serial)\tunknown\t/CN=ReceiptKit Test App Store Signing"
        case .unknown: line = "V\t491231235959Z\t\t0BADC0DE\tunknown\t/CN=Someone Else"
        }
        let index = self.directory.appendingPathComponent("index-\(status).txt")
        try Data((line + "\n").utf8).write(to: index)
        return OpenSSLResponder(directory: self.directory, index: index)
    }

    func verify(with transport: any OCSPTransport, now: Date = Date(), edit: (inout JWSVerificationPolicy) -> Void = { _ in })
        async throws -> JWSVerificationResult<JWSTransactionPayload>
    {
        let payload = JWSSamplePayload.transaction(
            bundleID: "com.example.app", productID: "pro", transactionID: "1", purchaseDate: now, signedDate: now)
        let jws = try JWSMinter.sign(payload, signer: self.authority.leaf, chain: self.authority.chain)
        var policy = JWSVerificationPolicy(
            anchors: ReceiptTrustAnchors([self.authority.root.certificate]),
            revocationCheck: JWSRevocationCheck(transport: transport)
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
        try Data(try other.intermediate.certificate.serializeAsPEM().pemString.utf8)
            .write(to: self.directory.appendingPathComponent("issuer.pem"))
        try Data(other.intermediate.privateKey.pemRepresentation.utf8)
            .write(to: self.directory.appendingPathComponent("issuer.key.pem"))
        let result = try await verify(with: try responder(.revoked))
        // A forged "revoked" is not believed either: the check failed, nothing more.
        #expect(result.failures == [.revocationCheckFailed])
    }

    @Test func dataThatAlreadyFailedIsNotCheckedOnline() async throws {
        let responder = try responder(.good)
        let result = try await verify(with: responder) { $0.bundleIdentifier = "com.example.other" }
        #expect(result.failures == [.bundleIDMismatch])
        #expect(responder.requests.isEmpty)
    }
}

/// `openssl ocsp` as the responder: each request is answered by one run over the index, signed by the issuer.
final class OpenSSLResponder: OCSPTransport, @unchecked Sendable {
    static let path: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let skipMessage = "openssl is not installed: the OCSP responder tests are skipped (.ci/run installs it)"

    let directory: URL
    let index: URL
    private let lock = NSLock()
    private var received: [String] = []

    init(directory: URL, index: URL) {
        self.directory = directory
        self.index = index
    }

    var requests: [String] { self.lock.withLock { self.received } }

    func response(to request: [UInt8], from uri: String) async throws -> [UInt8] {
        self.lock.withLock { self.received.append(uri) }
        let name = UUID().uuidString
        let input = self.directory.appendingPathComponent("\(name).req")
        let output = self.directory.appendingPathComponent("\(name).resp")
        try Data(request).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path ?? "/usr/bin/openssl")
        process.arguments = [
            "ocsp", "-index", self.index.path, "-CA", self.directory.appendingPathComponent("issuer.pem").path,
            "-rsigner", self.directory.appendingPathComponent("issuer.pem").path,
            "-rkey", self.directory.appendingPathComponent("issuer.key.pem").path,
            "-reqin", input.path, "-respout", output.path, "-nmin", "10",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return [UInt8](try Data(contentsOf: output))
    }
}

/// A responder that cannot be reached.
struct Unreachable: OCSPTransport {
    struct ConnectionRefused: Error {}
    func response(to request: [UInt8], from uri: String) async throws -> [UInt8] { throw ConnectionRefused() }
}
