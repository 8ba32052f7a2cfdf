import AppStorePKI
import AppStoreJWS
import AppStoreServerAPI
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import HummingbirdTesting
import NIOCore
import ReceiptKit
import AppStoreServerAPISimulator
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService
import ServiceLifecycle
import LedgerTestSupport
import Testing

/// `/verifyReceipt` as the bridge to the App Store Server API, over HTTP on every ledger backend, against the
/// local simulator (127.0.0.1): a renewal and a refund only Apple knows appear, Apple down or slow is answered from
/// the ledger within the wait and refreshed in the background, a fresh ledger makes no call, concurrent requests
/// make one, an unconfigured app none, and a refused key is counted.
@Suite("verifyReceipt refreshed from the App Store Server API")
struct APIBridgeTests {
    typealias H = ServiceHarness
    typealias N = NotificationServiceTests
    typealias L = LedgerAnswerTests

    static let keyID = "BRIDGEKEY1"
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let key = P256.Signing.PrivateKey()
    static let original = L.original
    static let renewal = L.renewal
    /// The renewal's purchase: after the receipt and the first period.
    static let renewed = N.signed.addingTimeInterval(1800)

    /// A simulator store that knows the app, the key, the subscription's two periods and its renewal info.
    static func store() throws -> SimulatedAppStore {
        let store = SimulatedAppStore()
        store.addApp(bundleIdentifier: N.bundle, appAppleID: 1)
        store.register(SimulatedAPIKey(keyID: Self.keyID, issuerID: Self.issuer, publicKey: Self.key.publicKey))
        try store.add(transaction: N.transaction(Self.original))
        try store.add(transaction: N.transaction(Self.renewal, signed: Self.renewed) {
            $0["purchaseDate"] = .number(AppStoreTimestamp(Self.renewed).number)
            $0["expiresDate"] = .number(AppStoreTimestamp(Self.renewed.addingTimeInterval(30 * 86_400)).number)
        })
        try store.setRenewalInfo(
            JWSSamplePayload.renewalInfo(
                productID: "com.example.app.pro", originalTransactionID: Self.original, signedDate: N.signed))
        return store
    }

    /// The service's configuration with the API configured for `bundle` at `baseURL`, quick retries, and `adjust`.
    static func configuration(
        baseURL: String,
        bundle: String = N.bundle,
        key: P256.Signing.PrivateKey = Self.key,
        _ adjust: (inout AppStoreServerAPIBridgeConfiguration) -> Void = { _ in }
    ) throws -> VerifyReceiptConfiguration {
        var configuration = try L.configuration()
        let apiKey = try AppStoreServerAPIKey(issuerID: Self.issuer, keyID: Self.keyID, privateKey: key)
        configuration.appStoreServerAPI.apps = [
            try AppStoreServerAPIAppConfiguration(bundleIdentifier: bundle, key: apiKey, baseURL: baseURL)
        ]
        // Generous for a loaded 2-core machine; the tests of Apple being slow set their own.
        configuration.appStoreServerAPI.refreshWait = .seconds(30)
        configuration.appStoreServerAPI.retryPolicy = RetryPolicy(
            maximumAttempts: 2, maximumTotalDelay: .milliseconds(200), baseDelay: .milliseconds(10),
            maximumDelay: .milliseconds(50))
        // The notification backfill would ask the simulator for notification history at start, beside what a test
        // counts; NotificationBackfillTests turns it on.
        configuration.notifications.backfill.isEnabled = false
        adjust(&configuration.appStoreServerAPI)
        return configuration
    }

    /// Runs the simulator and the service on `backend` with `configure`'s configuration.
    static func withBridge(
        _ backend: LedgerBackend,
        store: SimulatedAppStore,
        configure: @escaping @Sendable (String) throws -> VerifyReceiptConfiguration,
        _ body: @escaping @Sendable (any TestClientProtocol, ReceiptVerifier) async throws -> Void
    ) async throws {
        try await Self.withBridgeAndLedger(backend, store: store, configure: configure) { client, verifier, _ in
            try await body(client, verifier)
        }
    }

    /// ``withBridge(_:store:configure:_:)`` whose body also gets the ledger.
    static func withBridgeAndLedger(
        _ backend: LedgerBackend,
        store: SimulatedAppStore,
        configure: @escaping @Sendable (String) throws -> VerifyReceiptConfiguration,
        _ body: @escaping @Sendable (any TestClientProtocol, ReceiptVerifier, any Ledger) async throws -> Void
    ) async throws {
        let simulator = AppStoreServerSimulator(
            store: store, authority: try N.authority.get(), now: { ServiceTestPKI.now })
        try await simulator.run { baseURL in
            try await backend.withLedger { ledger in
                try await H.withLiveService(try configure(baseURL), ledger: ledger) { client, verifier in
                    try await body(client, verifier, ledger)
                }
            }
        }
    }

    static func metrics(_ client: any TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
    }

    static func info(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require(object["latest_receipt_info"] as? [[String: Any]])
    }

    /// Posts `receipt` and expects status 0 with only what the receipt itself taught the ledger.
    @discardableResult
    static func answeredFromTheReceiptAlone(
        _ client: any TestClientProtocol, _ receipt: [UInt8]
    ) async throws -> [String: Any] {
        let object = try await H.post(client, body: H.body(receipt))
        #expect(object["status"] as? Int == 0)
        #expect(L.ids(object) == [Self.original])
        return object
    }

    /// Another customer's subscription, which the simulator does not know.
    static let otherOriginal = "2000000000000009"

    static func anotherCustomersReceipt() throws -> [UInt8] {
        try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase(Self.otherOriginal, original: Self.otherOriginal, product: "com.example.app.pro", day: 2)
        ]))
    }

    @Test("a renewal only Apple knows appears in latest_receipt_info, with pending_renewal_info",
          arguments: LedgerBackend.available)
    func renewalOnlyAppleKnows(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        try await Self.withBridge(backend, store: store, configure: { try Self.configuration(baseURL: $0) }) {
            client, _ in
            let object = try await H.post(client, body: H.body(receipt))
            #expect(object["status"] as? Int == 0)
            #expect(L.ids(object) == [Self.renewal, Self.original])
            #expect(object["latest_receipt"] as? String == Data(receipt).base64EncodedString())
            let first = try #require(try Self.info(object).first)
            #expect(first["expires_date_ms"] as? String == "\(Self.renewed.addingTimeInterval(30 * 86_400).epochMilliseconds)")
            let pending = try #require(object["pending_renewal_info"] as? [[String: Any]])
            #expect(pending.compactMap { $0["original_transaction_id"] as? String } == [Self.original])
            #expect(pending.first?["auto_renew_product_id"] as? String == "com.example.app.pro")
            #expect(store.requestCount(.transactionHistory) == 1)
            #expect(store.requestCount(.subscriptionStatuses) == 1)
            let metrics = try await Self.metrics(client)
            #expect(metrics.contains(
                #"receiptkit_app_store_api_calls_total{endpoint="transaction_history",outcome="success"} 1"#))
            #expect(metrics.contains(
                #"receiptkit_app_store_api_calls_total{endpoint="subscription_statuses",outcome="success"} 1"#))
            #expect(metrics.contains(#"receiptkit_app_store_api_refreshes_total{result="fetched"} 1"#))
        }
    }

    @Test("a refresh keeps each signed value as Apple sent it: the JWS verifies and is its row's, hash and payload",
          arguments: LedgerBackend.available)
    func refreshKeepsAppleJWS(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        try await Self.withBridgeAndLedger(backend, store: try Self.store(), configure: { try Self.configuration(baseURL: $0) }) {
            client, _, ledger in
            #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
            let snapshot = try await ledger.snapshot(matching: N.query)
            let signed = snapshot.transactions.filter { $0.source == .api }
            #expect(Set(signed.map(\.transactionIdentifier)) == [Self.original, Self.renewal])
            let policy = JWSVerificationPolicy(
                anchors: AppStoreTrustAnchors([try N.authority.get().root.certificate]), bundleIdentifier: N.bundle,
                environment: .production)
            for row in signed {
                let stored = try await ledger.signedTransaction(
                    environment: .production, bundleIdentifier: N.bundle, transactionIdentifier: row.transactionIdentifier)
                let jws = try #require(stored?.currentJWS)
                let result = try await JWSVerifier(policy: policy, cache: nil).verify(
                    jws, as: JWSTransactionPayload.self, now: ServiceTestPKI.now)
                #expect(result.isValid)
                #expect(result.payload.transactionID == row.transactionIdentifier)
                #expect(row.receiptHash == LedgerTransaction.signedDataHashPrefix
                    + SHA256.hash(data: Array(jws.utf8)).map { String(format: "%02x", $0) }.joined())
                #expect(row.signedJWS == nil)  // snapshots leave the JWS out
            }
            let renewal = try #require(snapshot.renewalInfo.first)
            #expect(renewal.source == .api)
            let result = try await JWSVerifier(policy: JWSVerificationPolicy(
                anchors: AppStoreTrustAnchors([try N.authority.get().root.certificate]), environment: .production), cache: nil)
                .verify(try #require(renewal.signedJWS), as: JWSRenewalInfoPayload.self, now: ServiceTestPKI.now)
            #expect(result.isValid)
            #expect(result.payload.originalTransactionID == Self.original)
        }
    }

    @Test("statuses failing after the history: the history still reaches the answer, and the id stays due",
          arguments: LedgerBackend.available)
    func historyKeptWhenStatusesFail(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        store.inject(.serverError(status: 503), for: .subscriptionStatuses, times: nil)
        try await Self.withBridge(backend, store: store, configure: { try Self.configuration(baseURL: $0) }) {
            client, _ in
            let object = try await H.post(client, body: H.body(receipt))
            #expect(object["status"] as? Int == 0)
            #expect(L.ids(object) == [Self.renewal, Self.original])
            #expect(object["pending_renewal_info"] == nil)
            #expect(try await Self.metrics(client).contains(#"receiptkit_app_store_api_refreshes_total{result="failed"} 1"#))
            // A 5xx is not the key's fault: the id backs off, the app is not paused.
            #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
            #expect(try await Self.metrics(client).contains(#"receiptkit_app_store_api_refreshes_total{result="backoff"} 1"#))
        }
    }

    @Test("a renewal refunded at Apple carries cancellation_date*, cancellation_reason",
          arguments: LedgerBackend.available)
    func refundedRenewal(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        let refunded = Self.renewed.addingTimeInterval(600)
        #expect(store.revoke(transactionID: Self.renewal, at: refunded, reason: 1))
        try await Self.withBridge(backend, store: store, configure: { try Self.configuration(baseURL: $0) }) {
            client, _ in
            let object = try await H.post(client, body: H.body(receipt))
            #expect(object["status"] as? Int == 0)
            let rows = try Self.info(object)
            let row = try #require(rows.first { $0["transaction_id"] as? String == Self.renewal })
            #expect(row["cancellation_date_ms"] as? String == "\(refunded.epochMilliseconds)")
            #expect(row["cancellation_date"] as? String == "2025-06-15 14:46:40 Etc/GMT")
            #expect(row["cancellation_date_pst"] as? String == "2025-06-15 07:46:40 America/Los_Angeles")
            #expect(row["cancellation_reason"] as? String == "1")
            let kept = try #require(rows.first { $0["transaction_id"] as? String == Self.original })
            #expect(kept["cancellation_date_ms"] == nil)
        }
    }

    @Test("Apple slower than the wait: status 0 from the ledger while Apple holds, the refresh lands in the background",
          arguments: LedgerBackend.available)
    func slowAppleAnswersFromTheLedger(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        // Apple answers only when the test says so: no wall-clock race for a loaded machine to lose.
        let gate = SimulatedGate()
        store.inject(.hold(gate), for: .transactionHistory)
        try await Self.withBridge(backend, store: store, configure: {
            try Self.configuration(baseURL: $0) { $0.refreshWait = .milliseconds(300) }
        }) { client, _ in
            defer { gate.open() }
            try await Self.answeredFromTheReceiptAlone(client, receipt)
            // Answered while Apple holds the history request (the gate opens by itself only after a minute): the
            // wait ended it, not Apple's answer.
            #expect(await gate.waitForArrivals(1))
            #expect(gate.heldCount == 1)
            #expect(try await Self.metrics(client).contains(
                #"receiptkit_app_store_api_refreshes_total{result="background"} 1"#))

            // The refresh goes on without the request: once Apple answers it lands; poll, boundedly.
            gate.open()
            var refreshed: [String]? = nil
            for _ in 0..<300 {
                refreshed = L.ids(try await H.post(client, body: H.body(receipt)))
                if refreshed == [Self.renewal, Self.original] { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(refreshed == [Self.renewal, Self.original])
            #expect(store.requestCount(.transactionHistory) == 1)
            let metrics = try await Self.metrics(client)
            #expect(metrics.contains(#"receiptkit_app_store_api_refreshes_total{result="background"} 1"#))
            #expect(metrics.contains(#"receiptkit_app_store_api_refreshes_total{result="fetched"} 1"#))
        }
    }

    @Test("a fresh ledger makes no API call; the refresh interval makes the next", arguments: LedgerBackend.available)
    func freshLedgerMakesNoCall(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        try await Self.withBridge(backend, store: store, configure: { try Self.configuration(baseURL: $0) }) {
            client, _ in
            #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
            #expect(store.requestCount(.transactionHistory) == 1)
            store.resetRequests()
            let again = try await H.post(client, body: H.body(receipt))
            #expect(again["status"] as? Int == 0)
            #expect(L.ids(again) == [Self.renewal, Self.original])
            #expect(store.requestCount(.transactionHistory) == 0)
            #expect(store.requestCount(.subscriptionStatuses) == 0)
            #expect(try await Self.metrics(client).contains(#"receiptkit_app_store_api_refreshes_total{result="fresh"} 1"#))
        }
    }

    @Test("a receipt of several original transaction ids: one history and one statuses call for the customer",
          arguments: LedgerBackend.available)
    func oneFetchPerReceipt(backend: LedgerBackend) async throws {
        // The subscription Apple knows, and a non-consumable of the same customer.
        let receipt = try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase(Self.original, original: Self.original, product: "com.example.app.pro", day: 1),
            ServiceTestPKI.purchase("3000000000000001", original: "3000000000000001", product: "com.example.app.coins",
                                    day: 2, subscription: false),
        ]))
        let store = try Self.store()
        try await Self.withBridge(backend, store: store, configure: { try Self.configuration(baseURL: $0) }) {
            client, _ in
            let object = try await H.post(client, body: H.body(receipt))
            #expect(object["status"] as? Int == 0)
            #expect(L.ids(object)?.prefix(2) == [Self.renewal, Self.original])
            #expect(store.requestCount(.transactionHistory) == 1)
            #expect(store.requestCount(.subscriptionStatuses) == 1)
            // The id the customer's history did not hold stays due and leads the next refresh (Apple does not know
            // it: stamped as found nothing); then neither is due.
            store.resetRequests()
            #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
            #expect(store.requestCount(.transactionHistory) == 1)
            store.resetRequests()
            #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
            #expect(store.requestCount(.transactionHistory) == 0)
        }
    }

    @Test("concurrent requests for one receipt make one history fetch", arguments: LedgerBackend.available)
    func concurrentRequestsShareOneFetch(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        // Apple holds the first fetch while the other requests come; one that comes after it ended finds the
        // ledger fresh, so the count holds however the machine schedules them.
        let gate = SimulatedGate()
        store.inject(.hold(gate), for: .transactionHistory)
        try await Self.withBridge(backend, store: store, configure: { try Self.configuration(baseURL: $0) }) {
            _, verifier in
            defer { gate.open() }
            let body = Array(H.body(receipt).readableBytesView)
            let answers = await withTaskGroup(of: [String]?.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let answer = await verifier.answer(body: body, endpoint: .production)
                        let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
                        return object.flatMap(L.ids)
                    }
                }
                #expect(await gate.waitForArrivals(1))
                try? await Task.sleep(for: .milliseconds(300))
                gate.open()
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 6)
            #expect(answers.allSatisfy { $0 == [Self.renewal, Self.original] })
            #expect(store.requestCount(.transactionHistory) == 1)
        }
    }

    @Test("an app without API configuration makes no call and is answered as before",
          arguments: LedgerBackend.available)
    func unconfiguredAppMakesNoCall(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        try await Self.withBridge(backend, store: store, configure: {
            try Self.configuration(baseURL: $0, bundle: "com.example.other")
        }) { client, _ in
            let object = try await Self.answeredFromTheReceiptAlone(client, receipt)
            #expect(object["pending_renewal_info"] == nil)
            #expect(store.requestCount(.transactionHistory) == 0)
            #expect(store.requests.isEmpty)
        }
    }

    @Test("a key Apple refuses (401): answered from the ledger, the call counted unauthorized, the app paused",
          arguments: LedgerBackend.available)
    func refusedKeyAnswersFromTheLedger(backend: LedgerBackend) async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        try await Self.withBridge(backend, store: store, configure: {
            try Self.configuration(baseURL: $0, key: P256.Signing.PrivateKey())
        }) { client, _ in
            try await Self.answeredFromTheReceiptAlone(client, receipt)
            let metrics = try await Self.metrics(client)
            #expect(metrics.contains(
                #"receiptkit_app_store_api_calls_total{endpoint="transaction_history",outcome="unauthorized"} 1"#))
            #expect(metrics.contains(#"receiptkit_app_store_api_refreshes_total{result="failed"} 1"#))
            // The app is paused: neither this receipt nor another customer's asks Apple again.
            let another = try Self.anotherCustomersReceipt()
            #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
            #expect(try await H.post(client, body: H.body(another))["status"] as? Int == 0)
            #expect(store.requestCount(.transactionHistory) == 1)
            #expect(try await Self.metrics(client).contains(#"receiptkit_app_store_api_refreshes_total{result="paused"} 2"#))
            // /health names the app (the service still answers, so it stays 200 ok).
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(
                    String(buffer: response.body)
                        == #"{"app_store_server_api":[{"bundle_id":"\#(N.bundle)","condition":"key_refused","environment":"Production"}],"database":"reachable","status":"ok"}"#)
            }
        }
    }

    @Test("past maximumRefreshes a due refresh is skipped (busy) and the answer comes from the ledger")
    func refreshesAreBounded() async throws {
        let another = try Self.anotherCustomersReceipt()
        let store = try Self.store()
        // The first receipt's refresh stays in flight (in the background) while the second receipt comes.
        let gate = SimulatedGate()
        store.inject(.hold(gate), for: .transactionHistory)
        try await Self.withBridge(.sqliteMemory, store: store, configure: {
            try Self.configuration(baseURL: $0) {
                $0.maximumRefreshes = 1
                $0.refreshWait = .milliseconds(200)
            }
        }) { client, _ in
            defer { gate.open() }
            #expect(try await H.post(client, body: H.body(L.receipt()))["status"] as? Int == 0)
            #expect(await gate.waitForArrivals(1))
            let object = try await H.post(client, body: H.body(another))
            #expect(object["status"] as? Int == 0)
            #expect(L.ids(object) == [Self.otherOriginal])  // from the ledger: the receipt alone
            #expect(try await Self.metrics(client).contains(#"receiptkit_app_store_api_refreshes_total{result="busy"} 1"#))
        }
    }

    @Test("a sandbox receipt is refreshed from the sandbox environment; not at all for an app limited to production")
    func sandboxReceiptsFollowTheirEnvironment() async throws {
        let receipt = try ServiceTestPKI.mint(ServiceTestPKI.receipt(environment: .productionSandbox, purchases: [
            ServiceTestPKI.purchase(Self.original, original: Self.original, product: "com.example.app.pro", day: 1)
        ]))
        let store = SimulatedAppStore()
        store.addApp(bundleIdentifier: N.bundle, appAppleID: 1)
        store.register(SimulatedAPIKey(keyID: Self.keyID, issuerID: Self.issuer, publicKey: Self.key.publicKey))
        try store.add(transaction: N.transaction(Self.original, environment: .sandbox))
        try store.add(transaction: N.transaction(Self.renewal, signed: Self.renewed, environment: .sandbox))
        let simulator = AppStoreServerSimulator(
            store: store, authority: try N.authority.get(), environment: .sandbox, now: { ServiceTestPKI.now })
        try await simulator.run { baseURL in
            for only in [nil, AppStoreEnvironment.production] {
                store.resetRequests()
                var configuration = try Self.configuration(baseURL: baseURL)
                let key = try AppStoreServerAPIKey(issuerID: Self.issuer, keyID: Self.keyID, privateKey: Self.key)
                configuration.appStoreServerAPI.apps = [
                    try AppStoreServerAPIAppConfiguration(
                        bundleIdentifier: N.bundle, key: key, environment: only, baseURL: baseURL)
                ]
                let service = configuration
                try await H.withMemoryLedger { ledger in
                    try await H.withLiveService(service, ledger: ledger) { client, _ in
                        let object = try await H.post(client, "/sandbox/verifyReceipt", body: H.body(receipt))
                        #expect(object["status"] as? Int == 0)
                        #expect(object["environment"] as? String == "Sandbox")
                        if only == nil {
                            #expect(L.ids(object) == [Self.renewal, Self.original])
                            #expect(store.requestCount(.transactionHistory) == 1)
                        } else {
                            #expect(L.ids(object) == [Self.original])
                            #expect(store.requests.isEmpty)
                        }
                    }
                }
            }
        }
    }

    @Test("a server started again refreshes again: the bridge runs with each application, not only the first")
    func bridgeRunsAgainAfterARestart() async throws {
        let store = try Self.store()
        try await Self.withServer(store: store) { server, services in
            let receipts = [try L.receipt(), try Self.anotherCustomersReceipt()]
            for (round, receipt) in receipts.enumerated() {
                try await server.application().test(.live) { (client: any TestClientProtocol) async throws in
                    #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
                    #expect(store.requestCount(.transactionHistory) == round + 1, "round \(round)")
                    #expect(try await Self.metrics(client).contains(
                        #"receiptkit_app_store_api_refreshes_total{result="fetched"} \#(round + 1)"#))
                }
            }
        }
    }

    @Test("one bridge runs in one application at a time: a second run is refused at once, the first keeps refreshing")
    func aSecondRunOfTheBridgeIsRefused() async throws {
        let store = try Self.store()
        try await Self.withServer(store: store) { server, services in
            let (first, second) = (try L.receipt(), try Self.anotherCustomersReceipt())
            try await server.application().test(.live) { (client: any TestClientProtocol) async throws in
                #expect(try await H.post(client, body: H.body(first))["status"] as? Int == 0)
                #expect(store.requestCount(.transactionHistory) == 1)
                // The components' services run in this application already: running them again ends at once with
                // an error that says so, rather than a second set of refreshes or a wait.
                let bridge = try #require(services.first)
                await #expect {
                    try await bridge.run()
                } throws: { error in
                    String(describing: error).contains("runs already")
                }
                #expect(try await H.post(client, body: H.body(second))["status"] as? Int == 0)
                #expect(store.requestCount(.transactionHistory) == 2)
            }
        }
    }

    /// Runs the simulator and one `VerifyReceiptServer` (not yet started) on a memory ledger, with its components'
    /// services, for tests that start its applications themselves.
    static func withServer(
        store: SimulatedAppStore,
        _ body: @escaping @Sendable (VerifyReceiptServer, [any Service]) async throws -> Void
    ) async throws {
        let simulator = AppStoreServerSimulator(
            store: store, authority: try N.authority.get(), now: { ServiceTestPKI.now })
        try await simulator.run { baseURL in
            let configuration = try Self.configuration(baseURL: baseURL)
            try await H.withMemoryLedger { ledger in
                let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { ServiceTestPKI.now })
                var logger = Logger(label: "receiptkit.test")
                logger.logLevel = .warning
                try await body(
                    VerifyReceiptServer(components: components, host: "127.0.0.1", port: 0, logger: logger),
                    components.services)
            }
        }
    }

    @Test("a refresh left in the background is cancelled when the service stops")
    func backgroundRefreshIsCancelledAtShutdown() async throws {
        let receipt = try L.receipt()
        let store = try Self.store()
        // Apple holds the history for two minutes unless the test opens the gate, which it does only after the
        // service stopped.
        let gate = SimulatedGate(limit: .seconds(120))
        store.inject(.hold(gate), for: .transactionHistory)
        let simulator = AppStoreServerSimulator(
            store: store, authority: try N.authority.get(), now: { ServiceTestPKI.now })
        try await simulator.run { baseURL in
            defer { gate.open() }
            let configuration = try Self.configuration(baseURL: baseURL) {
                $0.refreshWait = .milliseconds(200)
                $0.requestTimeout = .seconds(120)  // were the fetch not cancelled, the service would wait for it
            }
            try await H.withMemoryLedger { ledger in
                let stopping = try await H.withLiveService(configuration, ledger: ledger) { client, _ in
                    try await Self.answeredFromTheReceiptAlone(client, receipt)
                    #expect(await gate.waitForArrivals(1))
                    return ContinuousClock.now
                }
                // Stopped while Apple still held the request: half the time an uncancelled fetch would take (wide:
                // on two busy cores a task may wait half a minute for a thread).
                #expect(!gate.isOpen)
                #expect(ContinuousClock.now - stopping < .seconds(60))
            }
        }
    }
}
