#if os(Linux) || os(macOS)
public import AppStoreJWS
import Crypto
import Foundation
import NIOConcurrencyHelpers
import _ReceiptKitShared
import SwiftASN1
public import X509

/// OpenSSL's OCSP responder (`openssl ocsp -index`) as a test double for revocation checking: it answers each DER
/// request for `certificate` with `status`, signed by `issuer`. As an `OCSPTransport` it answers in process;
/// ``answer(_:)`` is the same responder for a test's own loopback HTTP server.
///
/// OpenSSL 3.0's `-port` mode binds every interface, so the responder runs once per request with
/// `-reqin`/`-respout` instead. Its responses carry the system clock's time (valid 10 minutes): verify at the
/// current time. Needs `openssl` (``executable``); tests skip with ``skipMessage`` without it.
public final class OpenSSLOCSPResponder: OCSPTransport, @unchecked Sendable {
    /// What the responder's index says about the certificate.
    public enum Status: Sendable {
        /// Valid.
        case good
        /// Revoked on 2025-01-01 (key compromise).
        case revoked
        /// Not in the index: the responder answers `unknown`.
        case unknown
    }

    /// Why the responder gave no answer.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The `openssl` found on this machine, if any.
    public static let executable: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Why tests that need the responder are skipped.
    public static let skipMessage = "openssl is not installed: the OCSP responder tests are skipped (.ci/run installs it)"

    private let directory: URL
    private let received = NIOLockedValueBox<[String]>([])

    /// Creates a responder in a fresh temporary directory.
    /// - Parameters:
    ///   - certificate: The certificate the index describes.
    ///   - status: What the index says about it.
    ///   - issuer: The responder's identity (the certificate's issuer, or another one to forge answers).
    public init(for certificate: Certificate, status: Status, issuer: JWSTestAuthority.Identity) throws {
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-ocsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        try Data(try issuer.certificate.serializeAsPEM().pemString.utf8).write(to: self.file("issuer.pem"))
        try Data(issuer.privateKey.pemRepresentation.utf8).write(to: self.file("issuer.key.pem"))
        let serial = HexDigits.string(certificate.serialNumber.bytes).uppercased()  // OpenSSL's index spelling
        let line: String
        switch status {
        case .good: line = "V\t491231235959Z\t\t\(serial)\tunknown\t/CN=ReceiptKit Test"
        case .revoked: line = "R\t491231235959Z\t250101000000Z,keyCompromise\t\(serial)\tunknown\t/CN=ReceiptKit Test"
        case .unknown: line = "V\t491231235959Z\t\t0BADC0DE\tunknown\t/CN=Someone Else"
        }
        try Data((line + "\n").utf8).write(to: self.file("index.txt"))
    }

    deinit {
        try? FileManager.default.removeItem(at: self.directory)
    }

    /// The responder URIs asked so far, in order.
    public var requests: [String] { self.received.withLockedValue { $0 } }

    /// Answers `request` (counted in ``requests``).
    public func response(to request: [UInt8], from uri: String) async throws -> [UInt8] {
        self.received.withLockedValue { $0.append(uri) }
        return try await self.answer(request)
    }

    /// One run of `openssl ocsp` over the index: the DER response to the DER `request`. It waits off Swift's
    /// cooperative threads (a test's HTTP handler calls it while other suites run).
    public func answer(_ request: [UInt8]) async throws -> [UInt8] {
        let name = UUID().uuidString
        let input = self.file("\(name).req")
        let output = self.file("\(name).resp")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try Data(request).write(to: input)
        let run = try await ChildProcess.run(
            URL(fileURLWithPath: Self.executable ?? "/usr/bin/openssl"),
            [
                "ocsp", "-index", self.file("index.txt").path, "-CA", self.file("issuer.pem").path,
                "-rsigner", self.file("issuer.pem").path, "-rkey", self.file("issuer.key.pem").path,
                "-reqin", input.path, "-respout", output.path, "-nmin", "10",
            ])
        guard run.status == 0 else {
            throw Failure(description: "openssl ocsp exited with status \(run.status)")
        }
        return [UInt8](try Data(contentsOf: output))
    }

    private func file(_ name: String) -> URL {
        self.directory.appendingPathComponent(name)
    }
}
#endif
