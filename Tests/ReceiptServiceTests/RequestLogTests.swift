import Hummingbird
import LedgerTestSupport
import HummingbirdTesting
import Logging
import NIOCore
import ReceiptLedger
@testable import ReceiptService
import Testing

/// Every request is logged once when it ends: a route's own line, a refusal named by its route, and every other
/// request as its method and path with its status — probes answered 200 at debug, the rest at info.
@Suite("The request log")
struct RequestLogTests {
    /// The request lines `body` caused (those with a duration), after the server stopped.
    static func requestLines(
        _ adjust: (inout VerifyReceiptConfiguration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws -> [CapturedLogs.Entry] {
        let logs = CapturedLogs()
        let configuration = try ServiceHarness.configuration(adjust)
        try await ServiceHarness.withMemoryLedger { ledger in
            let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { ServiceTestPKI.now })
            let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: logs.logger)
            try await server.application().test(.live) { client in try await body(client) }
        }
        return logs.all.filter { $0.metadata["duration_ms"] != nil }
    }

    @Test("/health and /metrics at debug, an unknown path and a wrong method at info, each with its status")
    func probesAndUnroutedRequests() async throws {
        let lines = try await Self.requestLines { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/wp-login.php?user=admin", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/verifyReceipt", method: .get) { #expect($0.status == .methodNotAllowed) }
            try await client.execute(uri: "/" + String(repeating: "a", count: 500), method: .get) {
                #expect($0.status == .notFound)
            }
        }
        let summary = lines.map { "\($0.level) \($0.message) \($0.metadata["http_status"] ?? "-")" }
        #expect(summary.count == 5)
        #expect(summary.first == "debug GET /health 200")
        #expect(summary.dropFirst().first == "debug GET /metrics 200")
        // The query string is never logged (it may carry anything).
        #expect(summary.dropFirst(2).first == "info GET /wp-login.php 404")
        #expect(summary.dropFirst(3).first == "info GET /verifyReceipt 405")
        #expect(summary.last == "info GET /" + String(repeating: "a", count: 127) + "… 404")
    }

    @Test("a refusal before a verdict is named by its route: verifyReceipt, notification, jws")
    func refusalsNameTheirRoute() async throws {
        let lines = try await Self.requestLines({
            $0.maximumBodySize = 1024
            $0.servesJWSVerify = true
        }) { client in
            let port = try #require(client.port)
            // One connection each: the service closes a connection whose body it refuses.
            for path in ["/verifyReceipt", "/sandbox/verifyReceipt", "/notifications/v2", "/jws/verify"] {
                let answer = try await RawHTTP.exchange(
                    port: port, head: "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1025\r\n\r\n",
                    body: [], timeout: 30)
                #expect(answer.hasPrefix("HTTP/1.1 413"), "\(path): \(answer)")
            }
        }
        #expect(lines.map(\.message) == ["verifyReceipt refused", "verifyReceipt refused", "notification refused", "jws refused"])
        #expect(lines.allSatisfy { $0.level == .notice && $0.metadata["http_status"] == "413" })
    }

    @Test("an unhealthy answer is logged at info")
    func unhealthyAtInfo() async throws {
        let logs = CapturedLogs()
        let configuration = try ServiceHarness.configuration()
        let ledger = FailingLedger(error: LedgerError(.unavailable, "down"))
        let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { ServiceTestPKI.now })
        let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: logs.logger)
        try await server.application().test(.live) { client in
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .serviceUnavailable) }
        }
        let line = logs.all.last { $0.metadata["duration_ms"] != nil }
        #expect(line?.level == .info)
        #expect(line?.message == "GET /health")
        #expect(line?.metadata["http_status"] == "503")
    }
}
