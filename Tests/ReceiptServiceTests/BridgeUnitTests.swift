import APITestSupport
import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import Testing

/// The App Store Server API bridge on its own, with a scripted transport and a pinned clock: what each admission
/// answers, what a refresh writes, backoff, pause, the bound and the background — no HTTP server, no simulator (the
/// end-to-end cases are `APIBridgeTests`).
@Suite("App Store Server API bridge, scripted")
struct BridgeUnitTests {
    static let bundle = "com.example.app"
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let authority: Result<JWSTestAuthority, any Error> = Result { try JWSTestAuthority() }

    /// A bridge for one app in the sandbox, on `transport`, with a clock the test moves.
    struct Fixture: Sendable {
        let bridge: AppStoreServerAPIBridge
        let transport: ScriptedTransport
        let metrics: ServiceMetrics
        let ledger: any Ledger
        let clock: NIOLockedValueBox<Date>
        let logs: CapturedLogs

        func key(
            _ id: String, bundle: String = BridgeUnitTests.bundle, environment: AppStoreEnvironment = .sandbox
        ) -> RefreshKey {
            RefreshKey(environment: environment, bundleIdentifier: bundle, originalTransactionIdentifier: id)
        }

        /// The value of the refresh counter for `result`, 0 when it was never counted.
        func refreshes(_ result: APIRefreshResult) -> Int { self.counted("app_store_api_refreshes_total{result=\"\(result.rawValue)\"}") }

        func calls(_ endpoint: APICall.Endpoint, _ outcome: String) -> Int {
            self.counted("app_store_api_calls_total{endpoint=\"\(endpoint.rawValue)\",outcome=\"\(outcome)\"}")
        }

        private func counted(_ series: String) -> Int {
            let text = String(decoding: self.metrics.exposition(), as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("receiptkit_" + series + " ") {
                return Int(line.split(separator: " ").last ?? "") ?? -1
            }
            return 0
        }

        func advance(seconds: Double) { self.clock.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// Runs `body` with a running bridge (its `run()` a child task, cancelled afterwards).
    static func withBridge(
        _ steps: [ScriptedTransport.Step],
        _ adjust: (inout AppStoreServerAPIBridgeConfiguration) -> Void = { _ in },
        running: Bool = true,
        apps: [String] = [Self.bundle],
        _ body: @Sendable (Fixture) async throws -> Void
    ) async throws {
        let authority = try Self.authority.get()
        let transport = ScriptedTransport(steps)
        let runtime = PinnedRuntime(now: Self.now)
        var settings = AppStoreServerAPIBridgeConfiguration()
        adjust(&settings)
        let configuration = settings
        var clients: [String: AppStoreServerAPIClient] = [:]
        for bundle in apps {
            var client = try AppStoreServerAPIConfiguration(
                key: try AppStoreServerAPIKey(
                    issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "UNIT\(UInt32.random(in: 0...UInt32.max))",
                    privateKey: .init()),
                bundleIdentifier: bundle, environment: .sandbox, baseURL: "http://127.0.0.1:1")
            client.verificationPolicy.anchors = AppStoreTrustAnchors([authority.root.certificate])
            client.retryPolicy = RetryPolicy(
                maximumAttempts: 1, maximumTotalDelay: .zero, baseDelay: .zero, maximumDelay: .zero)
            clients[bundle] = try AppStoreServerAPIClient(configuration: client, transport: transport, runtime: runtime.runtime)
        }
        let appClients = clients
        let clock = NIOLockedValueBox(Self.now)
        let metrics = ServiceMetrics()
        let logs = CapturedLogs()
        try await ServiceHarness.withMemoryLedger { ledger in
            let bridge = AppStoreServerAPIBridge(
                configuration: configuration,
                clients: [.sandbox: appClients],
                ledger: ledger, metrics: metrics, logger: logs.logger, now: { clock.withLockedValue { $0 } })
            let fixture = Fixture(
                bridge: bridge, transport: transport, metrics: metrics, ledger: ledger, clock: clock, logs: logs)
            guard running else { return try await body(fixture) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await bridge.run() }
                while !bridge.isRunning { await Task.yield() }
                defer { group.cancelAll() }
                try await body(fixture)
            }
        }
    }

    /// A signed transaction of the app's sandbox; a subscription unless `type` says otherwise.
    static func transaction(
        _ id: String, original: String? = nil, type: TransactionType = .autoRenewableSubscription
    ) throws -> String {
        let authority = try Self.authority.get()
        var fields = JWSSamplePayload.transaction(
            bundleIdentifier: Self.bundle, productID: "com.example.app.pro", transactionID: id, originalTransactionID: original, type: type,
            environment: .sandbox, purchaseDate: Self.now.addingTimeInterval(-86_400), signedDate: Self.now)
        fields["environment"] = .string("Sandbox")
        return try JWSMinter.sign(fields, signer: authority.leaf, chain: authority.chain)
    }

    static func renewalInfo(_ original: String) throws -> String {
        let authority = try Self.authority.get()
        var fields = JWSSamplePayload.renewalInfo(
            productID: "com.example.app.pro", originalTransactionID: original, signedDate: Self.now)
        fields["environment"] = .string("Sandbox")
        return try JWSMinter.sign(fields, signer: authority.leaf, chain: authority.chain)
    }

    static func history(_ signed: [String]) -> ScriptedTransport.Step {
        let list = signed.map { "\"\($0)\"" }.joined(separator: ",")
        return ScriptedTransport.json(200, #"{"hasMore":false,"signedTransactions":[\#(list)]}"#)
    }

    static func statuses(_ original: String, transaction: String, renewal: String) -> ScriptedTransport.Step {
        ScriptedTransport.json(
            200,
            #"{"data":[{"subscriptionGroupIdentifier":"g","lastTransactions":[{"status":1,"originalTransactionId":"\#(original)","signedTransactionInfo":"\#(transaction)","signedRenewalInfo":"\#(renewal)"}]}]}"#
        )
    }

    static func snapshot(_ fixture: Fixture, _ id: String) async throws -> LedgerSnapshot {
        try await fixture.ledger.snapshot(
            matching: LedgerQuery(environment: .sandbox, bundleIdentifier: Self.bundle, originalTransactionIdentifiers: [id]))
    }

    // MARK: Admission

    @Test func aBridgeThatDoesNotRunAdmitsNothing() async throws {
        try await Self.withBridge([], running: false) { fixture in
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)) == false)
            #expect(fixture.refreshes(.notRunning) == 1)
            #expect(fixture.transport.requests.isEmpty)
        }
    }

    @Test func aRefreshWritesTheHistoryAndTheStatusesWithItsTime() async throws {
        let steps = [
            Self.history([try Self.transaction("1")]),
            Self.statuses("1", transaction: try Self.transaction("2", original: "1"), renewal: try Self.renewalInfo("1")),
        ]
        try await Self.withBridge(steps) { fixture in
            #expect(fixture.bridge.refreshes(bundleIdentifier: Self.bundle, environment: .sandbox))
            #expect(!fixture.bridge.refreshes(bundleIdentifier: Self.bundle, environment: .production))
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)))
            let requests = fixture.transport.requests.map(\.url)
            #expect(requests.count == 2)
            #expect(requests.first?.contains("/inApps/v2/history/1") == true)
            #expect(requests.last?.contains("/inApps/v1/subscriptions/1") == true)
            let snapshot = try await Self.snapshot(fixture, "1")
            #expect(Set(snapshot.transactions.map(\.transactionIdentifier)) == ["1", "2"])
            #expect(snapshot.renewalInfo.count == 1)
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "1") == Self.now.epochMilliseconds)
            #expect(fixture.refreshes(.fetched) == 1)
            #expect(fixture.calls(.transactionHistory, "success") == 1)
            #expect(fixture.calls(.subscriptionStatuses, "success") == 1)
        }
    }

    @Test func aPurchaseThatIsNoSubscriptionAsksForNoStatuses() async throws {
        try await Self.withBridge([Self.history([try Self.transaction("1", type: .nonConsumable)])]) { fixture in
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)))
            #expect(fixture.transport.requests.count == 1)
            #expect(fixture.refreshes(.fetched) == 1)
        }
    }

    @Test func anIncompleteRefreshKeepsWhatItGotAndBacksOff() async throws {
        let steps = [Self.history([try Self.transaction("1")]), ScriptedTransport.json(500, "{}")]
        try await Self.withBridge(steps, { $0.failureBackoff = .seconds(60) }) { fixture in
            // Written (the history), so the waiter reads the ledger again; but not complete.
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)))
            let snapshot = try await Self.snapshot(fixture, "1")
            #expect(snapshot.transactions.map(\.transactionIdentifier) == ["1"])
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "1") == nil)
            #expect(fixture.refreshes(.failed) == 1)
            #expect(fixture.calls(.subscriptionStatuses, "server_error") == 1)
            guard case .skip(.backoff) = fixture.bridge.admit(fixture.key("1")) else {
                Issue.record("a key that just failed is not backed off")
                return
            }
            fixture.advance(seconds: 61)
            guard case .wait = fixture.bridge.admit(fixture.key("1")) else {
                Issue.record("a key whose backoff passed is not admitted")
                return
            }
        }
    }

    @Test func appleKnowingNoSuchTransactionIsACompleteRefreshThatFoundNothing() async throws {
        let notFound = ScriptedTransport.json(404, #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
        try await Self.withBridge([notFound]) { fixture in
            #expect(await fixture.bridge.refresh([fixture.key("9")], wait: .seconds(60)))
            let snapshot = try await Self.snapshot(fixture, "9")
            #expect(snapshot.transactions.isEmpty)
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "9") == Self.now.epochMilliseconds)
            #expect(fixture.refreshes(.fetched) == 1)
            #expect(fixture.calls(.transactionHistory, "api_error") == 1)
        }
    }

    @Test func aRefusedKeyPausesTheWholeApp() async throws {
        try await Self.withBridge([ScriptedTransport.json(401, "")], { $0.refusedKeyPause = .seconds(300) }) { fixture in
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)) == false)
            #expect(fixture.calls(.transactionHistory, "unauthorized") == 1)
            // Another customer of the same app meets the pause, not Apple.
            #expect(await fixture.bridge.refresh([fixture.key("2")], wait: .seconds(60)) == false)
            #expect(fixture.refreshes(.paused) == 1)
            #expect(fixture.transport.requests.count == 1)
            fixture.advance(seconds: 301)
            guard case .wait = fixture.bridge.admit(fixture.key("2")) else {
                Issue.record("an app whose pause passed is not admitted")
                return
            }
        }
    }

    @Test func aRetryAfterOfADayPausesTheAppForAnHourAndSaysSo() async throws {
        let tooLong = ScriptedTransport.Step.answer(
            HTTPTransportResponse(status: 429, headers: [("Retry-After", "86400")], body: Array("{}".utf8)))
        try await Self.withBridge([tooLong]) { fixture in
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)) == false)
            #expect(fixture.calls(.transactionHistory, "rate_limited") == 1)
            fixture.advance(seconds: 3599)
            guard case .skip(.paused) = fixture.bridge.admit(fixture.key("2")) else {
                Issue.record("an app Apple rate-limited is admitted within the hour")
                return
            }
            fixture.advance(seconds: 2)
            guard case .wait = fixture.bridge.admit(fixture.key("2")) else {
                Issue.record("a 429 asking for a day paused the app past the hour")
                return
            }
            let notice = fixture.logs.all.first { $0.message.hasPrefix("Apple asked to wait longer") }
            #expect(notice?.level == .notice)
            #expect(notice?.metadata["retry_after_seconds"] == "86400")
            #expect(notice?.metadata["pause_seconds"] == "3600")
        }
    }

    @Test func aRefusedKeyIsSaidOnceAndNamedUntilAppleAnswersAgain() async throws {
        let steps = [
            ScriptedTransport.json(401, ""), ScriptedTransport.json(401, ""),
            Self.history([try Self.transaction("3", type: .nonConsumable)]),
        ]
        try await Self.withBridge(steps, { $0.refusedKeyPause = .seconds(300) }) { fixture in
            #expect(fixture.bridge.troubledApps.isEmpty)
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)) == false)
            #expect(
                fixture.bridge.troubledApps
                    == [APIAppTrouble(bundleIdentifier: Self.bundle, environment: .sandbox, condition: .keyRefused)])
            // Refused again after the pause: still one warning (a change of condition is said once).
            fixture.advance(seconds: 301)
            #expect(await fixture.bridge.refresh([fixture.key("2")], wait: .seconds(60)) == false)
            let warnings = fixture.logs.all.filter { $0.level == .warning }
            #expect(warnings.count == 1)
            #expect(warnings.first?.message.hasPrefix("Apple refused the App Store Server API key") == true)
            #expect(warnings.first?.metadata["bundle_id"] == Self.bundle)
            #expect(warnings.first?.metadata["condition"] == "key_refused")
            // The key works again: the app leaves the list, and that is said too.
            fixture.advance(seconds: 301)
            #expect(await fixture.bridge.refresh([fixture.key("3")], wait: .seconds(60)))
            #expect(fixture.bridge.troubledApps.isEmpty)
            #expect(fixture.logs.all.last?.level == .notice)
            #expect(fixture.logs.all.last?.message == "the App Store Server API answers again")
        }
    }

    @Test func pastTheBoundARefreshIsSkippedAsBusy() async throws {
        let held = ScriptedTransport.Step.hold(
            HTTPTransportResponse(status: 200, body: Array(#"{"hasMore":false,"signedTransactions":[]}"#.utf8)))
        try await Self.withBridge([held], { $0.maximumRefreshes = 1 }) { fixture in
            // The first refresh waits for Apple, which holds it; the request stops waiting (background).
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .milliseconds(1)) == false)
            #expect(fixture.refreshes(.background) == 1)
            // The same key joins nothing: it is in the background. Another key finds the bound full.
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)) == false)
            #expect(fixture.refreshes(.inBackground) == 1)
            #expect(await fixture.bridge.refresh([fixture.key("2")], wait: .seconds(60)) == false)
            #expect(fixture.refreshes(.busy) == 1)
            fixture.transport.release()
        }
    }

    @Test("a receipt of 300 ids is one refresh: other customers are admitted while it runs and after it fails")
    func aReceiptOfManyIdsCountsOnce() async throws {
        let held = ScriptedTransport.Step.hold(HTTPTransportResponse(status: 500, body: Array("{}".utf8)))
        try await Self.withBridge([held, Self.history([]), Self.history([])], { $0.maximumRefreshes = 2 }) { fixture in
            let receipt = (0..<300).map { fixture.key("9\($0)") }
            #expect(await fixture.bridge.refresh(receipt, wait: .milliseconds(1)) == false)
            let started = ContinuousClock.now
            while fixture.transport.inFlight == 0, ContinuousClock.now - started < .seconds(120) { await Task.yield() }
            // 300 ids under one flight: a budget of 2 still has room for another customer.
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)) == true)
            #expect(fixture.refreshes(.busy) == 0)
            // The receipt's fetch fails (Apple's 500): its 300 ids back off, and no one else's.
            fixture.transport.release()
            let released = ContinuousClock.now
            while fixture.refreshes(.failed) == 0, ContinuousClock.now - released < .seconds(120) { await Task.yield() }
            guard case .skip(.backoff) = fixture.bridge.admit(fixture.key("9150")) else {
                Issue.record("the failed receipt's ids do not back off")
                return
            }
            #expect(await fixture.bridge.refresh([fixture.key("2")], wait: .seconds(60)) == true)
            #expect(fixture.refreshes(.busy) == 0)
        }
    }

    @Test("production and sandbox have a budget each: a full sandbox does not keep production out")
    func eachEnvironmentHasItsBudget() async throws {
        let held = ScriptedTransport.Step.hold(
            HTTPTransportResponse(status: 200, body: Array(#"{"hasMore":false,"signedTransactions":[]}"#.utf8)))
        try await Self.withBridge([held], { $0.maximumRefreshes = 1 }) { fixture in
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .milliseconds(1)) == false)
            guard case .skip(.busy) = fixture.bridge.admit(fixture.key("2")) else {
                Issue.record("the sandbox budget of one is not full")
                return
            }
            guard case .wait = fixture.bridge.admit(fixture.key("3", environment: .production)) else {
                Issue.record("production waits for the sandbox's budget")
                return
            }
            fixture.transport.release()
        }
    }

    @Test("apps in an environment share its budget equally: one app's flood leaves the other its share")
    func appsShareTheBudget() async throws {
        let held = ScriptedTransport.Step.hold(
            HTTPTransportResponse(status: 200, body: Array(#"{"hasMore":false,"signedTransactions":[]}"#.utf8)))
        let other = "com.example.other"
        try await Self.withBridge([held, held], { $0.maximumRefreshes = 4 }, apps: [Self.bundle, other]) { fixture in
            #expect(fixture.bridge.share(of: .sandbox) == 2)
            for id in ["1", "2"] { #expect(await fixture.bridge.refresh([fixture.key(id)], wait: .milliseconds(1)) == false) }
            // The first app has used its share of two; the other app has its own.
            guard case .skip(.busy) = fixture.bridge.admit(fixture.key("3")) else {
                Issue.record("one app took more than its share")
                return
            }
            guard case .wait = fixture.bridge.admit(fixture.key("4", bundle: other)) else {
                Issue.record("the other app found no room")
                return
            }
            fixture.transport.release()
        }
    }

    @Test func oneFetchCoversEveryDueIdOfAReceipt() async throws {
        let held = ScriptedTransport.Step.hold(
            HTTPTransportResponse(status: 200, body: Array(#"{"hasMore":false,"signedTransactions":[]}"#.utf8)))
        try await Self.withBridge([held]) { fixture in
            let keys = [fixture.key("1"), fixture.key("2")]
            #expect(await fixture.bridge.refresh(keys, wait: .milliseconds(1)) == false)
            // The companion id is registered under the same flight: asking for it joins, it does not ask Apple.
            guard case .skip(.inBackground) = fixture.bridge.admit(fixture.key("2")) else {
                Issue.record("the companion id is not covered by the flight")
                return
            }
            // The flight's one request reaches Apple (its child task may start late on a busy machine), and no other.
            let arrived = ContinuousClock.now
            while fixture.transport.requests.isEmpty, ContinuousClock.now - arrived < .seconds(120) { await Task.yield() }
            #expect(fixture.transport.requests.count == 1)
            fixture.transport.release()
        }
    }

    @Test func aFetchCutShortByTheShutdownIsNotBackedOffWhenTheBridgeRunsAgain() async throws {
        let held = ScriptedTransport.Step.hold(
            HTTPTransportResponse(status: 200, body: Array(#"{"hasMore":false,"signedTransactions":[]}"#.utf8)))
        let steps = [held, Self.history([try Self.transaction("1", type: .nonConsumable)])]
        try await Self.withBridge(steps, { $0.failureBackoff = .seconds(3600) }, running: false) { fixture in
            let first = Task { try await fixture.bridge.run() }
            while !fixture.bridge.isRunning { await Task.yield() }
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .milliseconds(1)) == false)
            let arrived = ContinuousClock.now
            while fixture.transport.inFlight == 0, ContinuousClock.now - arrived < .seconds(120) { await Task.yield() }
            #expect(fixture.transport.inFlight == 1)
            // The service stops: the held fetch is cancelled, and the run ends.
            first.cancel()
            _ = await first.result
            #expect(!fixture.bridge.isRunning)
            #expect(fixture.transport.inFlight == 0)

            // Running again, the id is due at once: the cut-short fetch is no failure to back off from.
            let second = Task { try await fixture.bridge.run() }
            defer { second.cancel() }
            while !fixture.bridge.isRunning { await Task.yield() }
            guard case .wait = fixture.bridge.admit(fixture.key("1")) else {
                Issue.record("a fetch cancelled at shutdown is backed off after a restart")
                return
            }
            #expect(await fixture.bridge.refresh([fixture.key("1")], wait: .seconds(60)))
            #expect(fixture.transport.requests.count == 2)
            let snapshot = try await Self.snapshot(fixture, "1")
            #expect(snapshot.transactions.map(\.transactionIdentifier) == ["1"])
        }
    }
}
