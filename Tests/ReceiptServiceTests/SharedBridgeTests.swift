import APITestSupport
import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import Crypto
import Foundation
import LedgerTestSupport
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import Testing

/// Instances sharing a PostgreSQL ledger share the App Store Server API bridge's claims, backoffs and pauses
/// (issue 44 §7): three instances once made six Apple calls for one receipt, and kept calling after one saw a 429.
@Suite(
    "App Store Server API bridge across instances",
    .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
struct SharedBridgeTests {
    typealias U = BridgeUnitTests

    /// One instance: a bridge on its own ledger handle and transport.
    struct Instance: Sendable {
        let bridge: AppStoreServerAPIBridge
        let transport: ScriptedTransport
        let metrics: ServiceMetrics

        func refreshes(_ result: APIRefreshResult) -> Int {
            let text = String(decoding: self.metrics.exposition(), as: UTF8.self)
            let series = "receiptkit_app_store_api_refreshes_total{result=\"\(result.rawValue)\"} "
            return text.split(separator: "\n").first { $0.hasPrefix(series) }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }

        /// Waits (two minutes at most) until `condition` holds.
        func until(_ condition: @Sendable () -> Bool) async {
            let started = ContinuousClock.now
            while !condition(), ContinuousClock.now - started < .seconds(120) { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    static func instance(_ ledger: PostgresLedger, _ steps: [ScriptedTransport.Step]) throws -> Instance {
        let authority = try U.authority.get()
        let transport = ScriptedTransport(steps)
        var client = try AppStoreServerAPIConfiguration(
            key: try AppStoreServerAPIKey(
                issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "SHARED\(UInt32.random(in: 0...UInt32.max))",
                privateKey: .init()),
            bundleIdentifier: U.bundle, environment: .sandbox, baseURL: "http://127.0.0.1:1")
        client.verificationPolicy.anchors = AppStoreTrustAnchors([authority.root.certificate])
        client.retryPolicy = RetryPolicy(maximumAttempts: 1, maximumTotalDelay: .zero, baseDelay: .zero, maximumDelay: .zero)
        let apiClient = try AppStoreServerAPIClient(
            configuration: client, transport: transport, runtime: PinnedRuntime(now: U.now).runtime)
        let metrics = ServiceMetrics()
        let bridge = AppStoreServerAPIBridge(
            configuration: AppStoreServerAPIBridgeConfiguration(), clients: [.sandbox: [U.bundle: apiClient]],
            ledger: ledger, metrics: metrics, logger: CapturedLogs().logger, now: { U.now })
        return Instance(bridge: bridge, transport: transport, metrics: metrics)
    }

    /// Runs `body` while both bridges run.
    static func running(_ a: Instance, _ b: Instance, _ body: @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await a.bridge.run() }
            group.addTask { try await b.bridge.run() }
            while !a.bridge.isRunning || !b.bridge.isRunning { await Task.yield() }
            defer { group.cancelAll() }
            try await body()
        }
    }

    static func key(_ id: String) -> RefreshKey {
        RefreshKey(environment: .sandbox, bundleIdentifier: U.bundle, originalTransactionIdentifier: id)
    }

    @Test("a claim is one instance's until it ends; a failure backs the customer off for all; a pause stops the app for all")
    func claimsThroughTheLedger() async throws {
        try await LedgerBackend.withTwoPostgresLedgers { a, b in
            let at: Int64 = 1_750_000_000_000
            func claim(_ holder: String, _ id: String = "1", at time: Int64 = at) -> LedgerAPIClaim {
                LedgerAPIClaim(
                    environment: .sandbox, bundleIdentifier: U.bundle, originalTransactionIdentifier: id, holder: holder,
                    atMilliseconds: time, leaseMilliseconds: 180_000)
            }
            #expect(a.coordinatesAPIRefreshes)
            #expect(try await a.claimAPIRefresh(claim("a")) == .granted)
            #expect(try await b.claimAPIRefresh(claim("b")) == .heldElsewhere(untilMilliseconds: at + 180_000))
            // A lease its instance never ended lapses.
            #expect(try await b.claimAPIRefresh(claim("b", at: at + 180_000)) == .granted)
            // Ended by a holder that no longer holds it: nothing changes; by its holder, free again.
            try await a.endAPIRefresh(claim("a"), failedUntilMilliseconds: nil)
            #expect(try await a.claimAPIRefresh(claim("a", at: at + 180_001)) == .heldElsewhere(untilMilliseconds: at + 360_000))
            try await b.endAPIRefresh(claim("b", at: at + 180_000), failedUntilMilliseconds: at + 240_000)
            #expect(try await a.claimAPIRefresh(claim("a", at: at + 200_000)) == .backingOff(untilMilliseconds: at + 240_000))
            #expect(try await a.claimAPIRefresh(claim("a", at: at + 240_000)) == .granted)
            // Concurrent claims of one customer: exactly one is granted.
            let answers = try await withThrowingTaskGroup(of: LedgerAPIClaim.Answer.self) { group in
                for holder in 0..<8 {
                    let ledger = holder.isMultiple(of: 2) ? a : b
                    group.addTask { try await ledger.claimAPIRefresh(claim("h\(holder)", "2")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0 == .granted }.count == 1)
            // A pause stands for every customer of the app, the later of two pauses kept.
            try await b.pauseAPIApp(environment: .sandbox, bundleIdentifier: U.bundle, untilMilliseconds: at + 900_000)
            try await a.pauseAPIApp(environment: .sandbox, bundleIdentifier: U.bundle, untilMilliseconds: at + 600_000)
            #expect(try await a.claimAPIRefresh(claim("a", "3")) == .paused(untilMilliseconds: at + 900_000))
            #expect(try await a.claimAPIRefresh(claim("a", "3", at: at + 900_000)) == .granted)
        }
    }

    @Test("two bridges on one PostgreSQL ask Apple once per customer, share its backoff, and a 429 pauses both")
    func bridgesShareClaimsBackoffAndPause() async throws {
        let failing = ScriptedTransport.Step.hold(HTTPTransportResponse(status: 500, body: Array("{}".utf8)))
        let rateLimited = ScriptedTransport.json(429, #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#, headers: [("Retry-After", "600")])
        try await LedgerBackend.withTwoPostgresLedgers { ledgerA, ledgerB in
            let a = try Self.instance(ledgerA, [failing, rateLimited])
            let b = try Self.instance(ledgerB, [])
            try await Self.running(a, b) {
                // A asks Apple for customer 1 (held); B, asked for the same customer meanwhile, does not.
                #expect(await a.bridge.refresh([Self.key("1")], wait: .milliseconds(1)) == false)
                await a.until { a.transport.inFlight == 1 }
                #expect(await b.bridge.refresh([Self.key("1")], wait: .seconds(60)) == false)
                #expect(b.refreshes(.elsewhere) == 1)
                // A's fetch fails (Apple's 500): the customer backs off for B too.
                a.transport.release()
                await a.until { a.refreshes(.failed) == 1 }
                // A ends its claim on a task of its own: B asks once the ledger holds the backoff (a probe's claim
                // is granted neither while A holds it nor while it backs off, so asking changes nothing).
                let probe = LedgerAPIClaim(
                    environment: .sandbox, bundleIdentifier: U.bundle, originalTransactionIdentifier: "1",
                    holder: "probe", atMilliseconds: U.now.epochMilliseconds, leaseMilliseconds: 1)
                for _ in 0..<2_000 {
                    guard case .heldElsewhere = try await ledgerB.claimAPIRefresh(probe) else { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(await b.bridge.refresh([Self.key("1")], wait: .seconds(60)) == false)
                #expect(b.refreshes(.backoff) == 1)
                // A meets a 429 for customer 2: the app is paused for B's customer 3 too.
                #expect(await a.bridge.refresh([Self.key("2")], wait: .seconds(60)) == false)
                #expect(await b.bridge.refresh([Self.key("3")], wait: .seconds(60)) == false)
                #expect(b.refreshes(.paused) == 1)
                // B now knows it: its next customer is paused without asking the database.
                #expect(await b.bridge.refresh([Self.key("4")], wait: .seconds(60)) == false)
                #expect(b.refreshes(.paused) == 2)
                #expect(b.transport.requests.isEmpty)
                #expect(a.transport.requests.count == 2)
            }
        }
    }
}
