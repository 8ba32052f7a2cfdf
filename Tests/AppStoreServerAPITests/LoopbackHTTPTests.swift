@testable import AppStoreServerAPI
import APITestSupport
import AppStorePKI
import Foundation
import LoopbackHTTPSupport
import NIOConcurrencyHelpers
import NIOHTTP1
import Testing

/// The real transport (AsyncHTTPClient) against a tiny HTTP/1.1 server on 127.0.0.1: headers go out, status,
/// headers and body come back, the size bound and the timeout hold. (The full App Store Server API simulator lives in
/// ReceiptKitTesting; this only pins the transport.)
struct LoopbackHTTPTests {
    func client(
        port: Int,
        _ edit: (inout AppStoreServerAPIConfiguration) -> Void = { _ in }
    ) throws -> AppStoreServerAPIClient {
        var configuration = try AppStoreServerAPIConfiguration(
            key: try TestClients.key("LOOPBACK01"),
            bundleIdentifier: "com.example.app",
            environment: .sandbox,
            baseURL: "http://127.0.0.1:\(port)"
        )
        edit(&configuration)
        return try AppStoreServerAPIClient(configuration: configuration, runtime: PinnedRuntime().runtime)
    }

    @Test func aRequestTravelsOverHTTPAndA429IsRetried() async throws {
        let handler = ScriptedHTTPHandler([
            (429, [("Retry-After", "1")], #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#),
            (200, [("Content-Type", "application/json")], #"{"testNotificationToken":"ce3af791"}"#),
        ])
        try await Loopback.withServer(handler) { port in
            let response = try await client(port: port).requestTestNotification()
            #expect(response.testNotificationToken == "ce3af791")
        }
        let heads = handler.heads.withLockedValue { $0 }
        #expect(heads.count == 2)
        #expect(heads.allSatisfy { $0.method == .POST && $0.uri == "/inApps/v1/notifications/test" })
        #expect(heads.first?.headers.first(name: "Authorization")?.hasPrefix("Bearer ") == true)
        #expect(heads.first?.headers.first(name: "Accept") == "application/json")
    }

    @Test func anAppleErrorComesBackWithItsCode() async throws {
        let handler = ScriptedHTTPHandler([(404, [], #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)])
        try await Loopback.withServer(handler) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port).transactionInfoUnverified(transactionID: "1")
            }
            #expect(error?.code == .apiError)
            #expect(error?.apiErrorCode == .transactionIDNotFound)
            #expect(error?.httpStatus == 404)
        }
    }

    @Test func aBodyOverTheBoundIsRefused() async throws {
        let handler = ScriptedHTTPHandler([(200, [], String(repeating: "x", count: 4096))])
        try await Loopback.withServer(handler) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) { $0.maximumResponseSize = 1024 }.requestTestNotification()
            }
            #expect(error?.code == .responseTooLarge)
        }
    }

    /// An idempotent request is sent again after the timeout; a test notification (not idempotent: it may have
    /// reached Apple) only once.
    @Test(arguments: [false, true])
    func aServerThatNeverAnswersTimesOutAsUnreachable(testNotification: Bool) async throws {
        let handler = ScriptedHTTPHandler([ScriptedHTTPHandler.Answer?.none, nil])
        try await Loopback.withServer(handler) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                let client = try client(port: port) {
                    $0.timeout = .milliseconds(300)
                    $0.retryPolicy = RetryPolicy(maximumAttempts: 2)
                }
                if testNotification {
                    _ = try await client.requestTestNotification()
                } else {
                    _ = try await client.transactionInfoUnverified(transactionID: "1")
                }
            }
            #expect(error?.code == .unreachable)
        }
        #expect(handler.heads.withLockedValue { $0.count } == (testNotification ? 1 : 2))
    }

    @Test(.timeLimit(.minutes(1)))
    func aBodyThatNeverArrivesTimesOutAsUnreachable() async throws {
        try await Loopback.withServer(StallingHTTPHandler()) { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) {
                    $0.timeout = .milliseconds(300)
                    $0.retryPolicy = .never
                }.requestTestNotification()
            }
            #expect(error?.code == .unreachable)
            // The transport's own limit ended it (its reason), and the test's time limit catches a hang.
            #expect(error?.reason.contains("no complete answer within") == true)
        }
    }

    @Test func aRefusedConnectionIsUnreachable() async throws {
        try await Loopback.withRefusingPort { port in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client(port: port) { $0.retryPolicy = .never }.requestTestNotification()
            }
            #expect(error?.code == .unreachable)
        }
    }
}
