import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptLedger
import ReceiptService
import Testing

/// What a scanner or a smuggler meets: only the routes' exact paths answer, a known path asked with another method
/// says which it takes, and a request refused before its body gets that one answer — never a second.
@Suite("Route shapes and single answers")
struct RouteShapeTests {
    typealias H = ServiceHarness

    /// Sends `head` and `body` on a connection of its own and reads until the server closes it.
    static func exchange(_ port: Int, _ head: String, body: [UInt8] = []) async throws -> String {
        try await RawHTTP.exchange(port: port, head: head, body: body, timeout: 15)
    }

    @Test("a path variant is 404 and a known path with another method is 405 with Allow")
    func variantsAndMethods() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let port = try #require(client.port)
                for path in ["/metrics/", "//metrics", "///metrics//", "/./metrics", "/health/", "/verifyReceipt/", "//verifyReceipt"] {
                    let method = path.contains("verifyReceipt") ? "POST" : "GET"
                    let answer = try await Self.exchange(
                        port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    #expect(answer.hasPrefix("HTTP/1.1 404"), "\(method) \(path): \(answer.prefix(40))")
                }
                let methods: [(String, String, String)] = [
                    ("HEAD", "/health", "GET"), ("OPTIONS", "/verifyReceipt", "POST"), ("GET", "/verifyReceipt", "POST"),
                    ("POST", "/metrics", "GET"), ("DELETE", "/notifications/v2", "POST"),
                ]
                for (method, path, allowed) in methods {
                    let answer = try await Self.exchange(
                        port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    #expect(answer.hasPrefix("HTTP/1.1 405"), "\(method) \(path): \(answer.prefix(40))")
                    #expect(answer.lowercased().contains("allow: \(allowed.lowercased())\r\n"), "\(method) \(path): \(answer)")
                }
                // The exact paths still answer.
                let metrics = try await Self.exchange(port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                #expect(metrics.hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    @Test("a body refused before it is read whole (413, or 503 when the budget is spent) gets one answer, then the close")
    func oneAnswerPerRefusal() async throws {
        let configuration = try H.configuration {
            $0.maximumBodySize = 64 * 1024
            $0.maximumInFlightBodyBytes = 64 * 1024
        }
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                let port = try #require(client.port)
                // Declared over the body limit, with some of the body sent along.
                let large = try await Self.exchange(
                    port, "POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(64 * 1024 + 1)\r\n\r\n",
                    body: Array(repeating: UInt8(ascii: "{"), count: 4096))
                #expect(large.hasPrefix("HTTP/1.1 413"))
                #expect(large.components(separatedBy: "HTTP/1.1 ").count == 2, "\(large)")
                // A stalled upload holds all but a byte of the budget; the next body is refused with 503 at its
                // first chunk.
                let stalled = try RawConnection(port: port)
                _ = stalled.send(
                    Array("POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(64 * 1024)\r\n\r\n".utf8)
                        + Array(repeating: UInt8(ascii: "{"), count: 64 * 1024 - 1))
                try await BodyBudgetTests.waitForBodyBytes(port: port, atLeast: 64 * 1024 - 1)
                let busy = try await Self.exchange(
                    port, "POST /notifications/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 8192\r\n\r\n",
                    body: Array(repeating: UInt8(ascii: "{"), count: 4096))
                #expect(busy.hasPrefix("HTTP/1.1 503"))
                #expect(busy.components(separatedBy: "HTTP/1.1 ").count == 2, "\(busy)")
                withExtendedLifetime(stalled) {}
            }
        }
    }

    @Test("a transfer coding besides chunked (gzip, chunked) is 501, one answer, the body never read as if plain")
    func unknownTransferCodingIsNotImplemented() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let port = try #require(client.port)
                // "chunked, chunked" the HTTP decoder itself refuses (400) before any route sees it: one answer too.
                for (coding, status) in [("gzip, chunked", "501"), ("deflate", "501"), ("chunked, chunked", "400")] {
                    let answer = try await Self.exchange(
                        port, "POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: \(coding)\r\n\r\n",
                        body: Array("2\r\n{}\r\n0\r\n\r\n".utf8))
                    #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(coding): \(answer)")
                    #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(coding): \(answer)")
                }
                // On any path, not only the routes that read a body: 501, one answer, nothing left waiting.
                let probe = try await Self.exchange(
                    port, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: deflate\r\n\r\n",
                    body: Array("xyz".utf8))
                #expect(probe.hasPrefix("HTTP/1.1 501"), "\(probe)")
                #expect(probe.components(separatedBy: "HTTP/1.1 ").count == 2, "\(probe)")
                // Plain chunked is read.
                let chunked = try await Self.exchange(
                    port, "POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
                    body: Array("2\r\n{}\r\n0\r\n\r\n".utf8))
                #expect(chunked.hasPrefix("HTTP/1.1 200") && chunked.contains(#""status":21002"#), "\(chunked)")
            }
        }
    }

    @Test("Expect: 100-continue is answered 100 Continue before the body is sent, or refused (413) before it")
    func expectContinue() async throws {
        try await H.withMemoryLedger { ledger in
            try await H.withLiveService(try H.configuration(), ledger: ledger) { client, _ in
                let port = try #require(client.port)
                let connection = try RawConnection(port: port)
                _ = connection.send(
                    "POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
                let interim = await connection.readResponse(timeout: 30)
                #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n", "\(interim)")
                _ = connection.send("{}")
                let answer = await connection.readResponse(timeout: 30)
                #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains(#""status":21002"#), "\(answer)")
                // Over the limit: the refusal, no 100 first.
                let refused = try await Self.exchange(
                    port,
                    "POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(3 * 1024 * 1024 + 1)\r\nExpect: 100-continue\r\n\r\n")
                #expect(refused.hasPrefix("HTTP/1.1 413"), "\(refused)")
            }
        }
    }
}
