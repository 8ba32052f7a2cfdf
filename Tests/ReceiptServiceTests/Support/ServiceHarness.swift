import AppStorePKI
import Foundation
import Hummingbird
import HummingbirdTesting
import LedgerTestSupport
import Logging
import NIOCore
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService

/// Starts the real service on 127.0.0.1 (a free port) with a pinned clock and the test CA as an extra anchor.
enum ServiceHarness {
    static func configuration(_ adjust: (inout VerifyReceiptConfiguration) -> Void = { _ in }) throws
        -> VerifyReceiptConfiguration
    {
        var configuration = VerifyReceiptConfiguration()
        configuration.anchors = AppStoreTrustAnchors([try ServiceTestPKI.ca.root.certificate])
        // Limits far above what a request takes: the whole suite runs at once on a 2-core CI machine, where the
        // defaults (10 s a request, 3 s a health check) were missed while the codegen suite compiled. Tests of
        // the limits themselves set their own.
        configuration.requestTimeout = .seconds(120)
        configuration.healthTimeout = .seconds(120)
        // The test client opens its connection when the service starts and may first use it much later.
        configuration.headerReadTimeout = .seconds(120)
        configuration.idleTimeout = .seconds(120)
        configuration.bodyStallTimeout = .seconds(120)
        adjust(&configuration)
        return configuration
    }

    static func withLiveService<T: Sendable>(
        _ configuration: VerifyReceiptConfiguration,
        ledger: any Ledger,
        _ body: @Sendable (any TestClientProtocol, ReceiptVerifier) async throws -> T
    ) async throws -> T {
        let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { ServiceTestPKI.now })
        var logger = Logger(label: "receiptkit.test")
        logger.logLevel = .warning
        let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: logger)
        return try await server.application().test(.live) { client in
            try await body(client, components.verifier)
        }
    }

    /// A migrated in-memory SQLite ledger, shut down afterwards.
    static func withMemoryLedger<T: Sendable>(_ body: @Sendable (any Ledger) async throws -> T) async throws -> T {
        try await LedgerBackend.sqliteMemory.withLedger(body)
    }

    static func body(_ receipt: [UInt8], password: String? = nil, excludeOld: Bool? = nil) -> ByteBuffer {
        var object: [String: Any] = ["receipt-data": Data(receipt).base64EncodedString()]
        if let password { object["password"] = password }
        if let excludeOld { object["exclude-old-transactions"] = excludeOld }
        return ByteBuffer(bytes: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    /// POSTs `body` and parses the verifyReceipt answer (HTTP 200 with a JSON object is part of the contract).
    static func post(
        _ client: any TestClientProtocol, _ path: String = "/verifyReceipt", body: ByteBuffer,
        headers: HTTPFields = [.contentType: "application/json"]
    ) async throws -> [String: Any] {
        try await client.execute(uri: path, method: .post, headers: headers, body: body) { response in
            guard response.status == .ok else { throw ContractViolation("HTTP \(response.status.code), not 200") }
            guard response.headers[.contentType] == "application/json" else {
                throw ContractViolation("content type \(response.headers[.contentType] ?? "none")")
            }
            guard let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
            else { throw ContractViolation("body is not a JSON object") }
            return object
        }
    }
}

struct ContractViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A ledger that is down (or refuses statements): every call throws.
struct FailingLedger: Ledger {
    let error: LedgerError

    func migrate() async throws(LedgerError) { throw self.error }
    func schemaVersion() async throws(LedgerError) -> Int { throw self.error }
    func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary { throw self.error }
    func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot { throw self.error }
    func receipt(hash: String) async throws(LedgerError) -> [UInt8]? { throw self.error }
    func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool { throw self.error }
    func apply(_ update: LedgerUpdate) async throws(LedgerError) { throw self.error }
    func ping() async throws(LedgerError) { throw self.error }
    func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerCustomer? { throw self.error }
    func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) async throws(LedgerError) -> LedgerCustomer? { throw self.error }
    func shutdown() async {}
}
