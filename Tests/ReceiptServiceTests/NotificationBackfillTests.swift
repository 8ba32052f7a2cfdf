import AppStoreJWS
import AppStoreServerAPI
import AppStoreServerAPISimulator
import APITestSupport
import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import LedgerTestSupport
import ServiceLifecycle
import Testing

/// The notification backfill against the simulator's Get Notification History, on every ledger backend, the
/// service's clock and the simulator's one pinned clock that tests move: notifications that never arrived are
/// recorded as posted ones are, those that did are duplicates, the cursor follows completed windows only, a failed
/// window is run again, and one instance at a time runs an app on a shared ledger.
@Suite("Notification backfill")
struct NotificationBackfillTests {
    typealias N = NotificationServiceTests
    typealias B = APIBridgeTests
    typealias L = LedgerAnswerTests

    static let day: TimeInterval = 86_400
    static let original = "2000000000000001"

    /// The simulator's and the service's clock, moved by the tests.
    final class Clock: Sendable {
        private let box = NIOLockedValueBox(ServiceTestPKI.now)
        var now: Date { self.box.withLockedValue { $0 } }
        func advance(_ seconds: TimeInterval) { self.box.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// A notification's payload, its transaction signed by the test authority, signed `at`.
    static func notification(
        _ uuid: String, at signed: Date, type: NotificationType = .didRenew, environment: AppStoreEnvironment = .production
    ) throws -> [String: JSONValue] {
        let authority = try N.authority.get()
        let transaction = try JWSMinter.sign(
            N.transaction(Self.transactionID(uuid), signed: signed, environment: environment),
            signer: authority.leaf, chain: authority.chain)
        return JWSSamplePayload.notification(
            type: type, notificationUUID: uuid, bundleIdentifier: N.bundle, appAppleID: 1, environment: environment,
            signedDate: signed, signedTransactionInfo: transaction)
    }

    /// A transaction id of the notification's own (FNV-1a of its UUID).
    static func transactionID(_ uuid: String) -> String {
        let hash = uuid.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return "3" + String(hash % 1_000_000_000_000_000)
    }

    /// Adds a notification signed `at` and first sent a minute later (or `attempt`), its attempts failed or not.
    static func add(_ store: SimulatedAppStore, _ uuid: String, at signed: Date, attempt: Date? = nil, failed: Bool = false,
                    environment: AppStoreEnvironment = .production) throws {
        store.addNotification(
            try Self.notification(uuid, at: signed, environment: environment),
            attempts: [SimulatedSendAttempt(date: attempt ?? signed.addingTimeInterval(60), result: failed ? "TIMED_OUT" : "SUCCESS")])
    }

    static func store(pageSize: Int = 10) -> SimulatedAppStore {
        let store = SimulatedAppStore()
        store.addApp(bundleIdentifier: N.bundle, appAppleID: 1)
        store.register(SimulatedAPIKey(keyID: B.keyID, issuerID: B.issuer, publicKey: B.key.publicKey))
        store.pageSize = pageSize
        return store
    }

    /// The service's configuration: the app's Production environment at the simulator, the backfill on (10 days'
    /// look-back), quick retries.
    static func configuration(baseURL: String) throws -> VerifyReceiptConfiguration {
        var configuration = try L.configuration()
        let key = try AppStoreServerAPIKey(issuerID: B.issuer, keyID: B.keyID, privateKey: B.key)
        configuration.appStoreServerAPI.apps = [
            try AppStoreServerAPIAppConfiguration(bundleIdentifier: N.bundle, key: key, environment: .production, baseURL: baseURL)
        ]
        configuration.appStoreServerAPI.retryPolicy = RetryPolicy(
            maximumAttempts: 2, maximumTotalDelay: .milliseconds(100), baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20))
        configuration.notifications.backfill.lookBack = .seconds(10 * 86_400)
        return configuration
    }

    /// Runs the simulator and the service's components on `ledger`.
    static func withBackfill(
        _ ledger: any Ledger, store: SimulatedAppStore, clock: Clock,
        _ body: @Sendable (ServiceComponents) async throws -> Void
    ) async throws {
        let simulator = AppStoreServerSimulator(store: store, authority: try N.authority.get(), now: { clock.now })
        try await simulator.run { baseURL in
            let components = try ServiceComponents(
                configuration: try Self.configuration(baseURL: baseURL), ledger: ledger, now: { clock.now })
            try await body(components)
        }
    }

    static func recordedUUIDs(_ ledger: any Ledger) async throws -> Set<String> {
        Set(
            try await ledger.notifications(
                environment: .production, bundleIdentifier: N.bundle, originalTransactionIdentifiers: [Self.original],
                limit: 1000
            ).map(\.notificationUUID))
    }

    @Test("what never arrived is recorded, past the maximum age, page by page; the cursor follows; run again: duplicates",
          arguments: LedgerBackend.available)
    func recoversWhatNeverArrived(backend: LedgerBackend) async throws {
        let clock = Clock()
        let now = clock.now
        let store = Self.store()
        // 25 notifications over the last 9 days (older than the 7 days a posted one may be), one failed delivery in
        // five; one 11 days old, before the look-back.
        var expected = Set<String>()
        for index in 0..<25 {
            let uuid = "backfill-\(index)"
            try Self.add(store, uuid, at: now.addingTimeInterval(-9 * Self.day + Double(index) * 30_000), failed: index % 5 == 0)
            expected.insert(uuid)
        }
        try Self.add(store, "too-old", at: now.addingTimeInterval(-11 * Self.day))
        let all = expected
        try await backend.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                let pages = NIOLockedValueBox([Int]())
                let reports = await components.backfillNotifications { report in
                    pages.withLockedValue { $0.append(report.found) }
                }
                let report = try #require(reports.first)
                #expect(reports.count == 1)
                #expect(report.failure == nil && report.completed)
                #expect((report.found, report.recorded, report.duplicates, report.refusedCount, report.pages) == (25, 25, 0, 0, 3))
                #expect(pages.withLockedValue { $0 } == [10, 20, 25], "progress after each page")
                #expect(report.start == now.addingTimeInterval(-10 * Self.day) && report.end == now)
                #expect(try await Self.recordedUUIDs(ledger) == all)
                let state = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                #expect(state.coveredUntilMilliseconds == now.epochMilliseconds && state.windows == 1)

                // What the ledger holds costs nothing: from a date, every one is a duplicate; the cursor moves to the
                // window's end.
                clock.advance(60)
                let again = try #require(await components.backfillNotifications(since: now.addingTimeInterval(-10 * Self.day)).first)
                #expect((again.found, again.recorded, again.duplicates) == (25, 0, 25))
                let after = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                #expect(after.coveredUntilMilliseconds == now.addingTimeInterval(60).epochMilliseconds)

                // The next window overlaps the last by one interval (15 minutes): a notification Apple lists late,
                // first sent 10 minutes before the last window ended, is found; so is a new one.
                clock.advance(15 * 60)
                try Self.add(store, "late", at: now.addingTimeInterval(-11 * 60))
                try Self.add(store, "new", at: now.addingTimeInterval(5 * 60))
                let next = try #require(await components.backfillNotifications().first)
                #expect(next.start == now.addingTimeInterval(60 - 900) && next.end == now.addingTimeInterval(60 + 900))
                #expect((next.found, next.recorded, next.duplicates) == (2, 2, 0))
                #expect(try await Self.recordedUUIDs(ledger) == all.union(["late", "new"]))
                let metrics = String(decoding: components.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains(#"receiptkit_notification_backfill_windows_total{environment="Production",bundle_id="com.example.app",result="completed"} 3"#), "\(metrics)")
                #expect(metrics.contains(#"receiptkit_notification_backfill_recovered_total{environment="Production",bundle_id="com.example.app"} 27"#))
            }
        }
    }

    @Test("the first window starts at the newest notification held, less one interval; a posted one found again is a duplicate")
    func startsAtTheNewestHeld() async throws {
        let clock = Clock()
        let now = clock.now
        let store = Self.store()
        let posted = now.addingTimeInterval(-2 * Self.day)
        try Self.add(store, "before", at: now.addingTimeInterval(-3 * Self.day))
        try Self.add(store, "posted", at: posted)
        try Self.add(store, "missed", at: now.addingTimeInterval(-1 * Self.day), failed: true)
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                let authority = try N.authority.get()
                let jws = try JWSMinter.sign(try Self.notification("posted", at: posted), signer: authority.leaf, chain: authority.chain)
                let answer = await components.verifier.answerNotification(
                    body: JSONValue.object(["signedPayload": .string(jws)]).serialized)
                #expect(answer.outcome == .recorded)
                let report = try #require(await components.backfillNotifications().first)
                #expect(report.start == posted.addingTimeInterval(-900))
                #expect((report.found, report.recorded, report.duplicates) == (2, 1, 1))
                #expect(try await Self.recordedUUIDs(ledger) == ["posted", "missed"])
                // The newest notification's age, from the service's clock.
                components.metrics.observe(notificationsAt: now)
                let metrics = String(decoding: components.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains(#"receiptkit_notification_newest_age_seconds{environment="Production",bundle_id="com.example.app"} 86400.0"#), "\(metrics)")
            }
        }
    }

    @Test("a window that fails part-way keeps its cursor and its recorded notifications; the next runs it again",
          arguments: LedgerBackend.available)
    func aFailedWindowIsRunAgain(backend: LedgerBackend) async throws {
        let clock = Clock()
        let now = clock.now
        let store = Self.store()
        for index in 0..<25 {
            try Self.add(store, "window-\(index)", at: now.addingTimeInterval(-5 * Self.day + Double(index) * 3_600))
        }
        try await backend.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                // Apple fails from the second page on.
                let failing = await components.backfillNotifications { report in
                    if report.pages == 1 { store.inject(.serverError(status: 503), for: .notificationHistory, times: nil) }
                }
                let report = try #require(failing.first)
                #expect(report.failure?.code == "app_store_server_api", "\(String(describing: report.failure))")
                #expect(report.failure?.message.hasPrefix("Get Notification History: server_error: ") == true)
                #expect(!report.completed && report.recorded == 10)
                let state = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                // No window completed; the cursor holds the failed first window's start (plus the interval the
                // next one goes back by).
                #expect(state.windows == 0)
                #expect(state.coveredUntilMilliseconds == report.start.addingTimeInterval(900).epochMilliseconds)
                let metrics = String(decoding: components.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains(#"receiptkit_notification_backfill_windows_total{environment="Production",bundle_id="com.example.app",result="failed"} 1"#))

                store.clearFaults()
                clock.advance(900)
                // A notification posted meanwhile moves the newest held to now; the rerun still starts where the
                // failed window did.
                let authority = try N.authority.get()
                let fresh = try JWSMinter.sign(try Self.notification("posted-meanwhile", at: clock.now), signer: authority.leaf, chain: authority.chain)
                #expect(await components.verifier.answerNotification(body: JSONValue.object(["signedPayload": .string(fresh)]).serialized).outcome == .recorded)
                let rerun = try #require(await components.backfillNotifications().first)
                #expect(rerun.completed)
                // The same window again (its start was kept before it first ran): the 10 recorded are duplicates.
                #expect(rerun.start == report.start)
                #expect((rerun.found, rerun.recorded, rerun.duplicates) == (25, 15, 10))
                #expect(try await Self.recordedUUIDs(ledger).count == 26)
                let done = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                #expect(done.coveredUntilMilliseconds == clock.now.epochMilliseconds)
            }
        }
    }

    @Test("a window from a date later than the cursor's start leaves the cursor: the span between is still due")
    func sinceLaterThanTheCursor() async throws {
        let clock = Clock()
        let now = clock.now
        let store = Self.store()
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                #expect(try #require(await components.backfillNotifications().first).completed)
                clock.advance(3 * Self.day)
                try Self.add(store, "in-the-gap", at: now.addingTimeInterval(Self.day))
                let recent = try #require(await components.backfillNotifications(since: clock.now.addingTimeInterval(-3_600)).first)
                #expect(recent.completed && recent.found == 0)
                let state = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                #expect(state.coveredUntilMilliseconds == now.epochMilliseconds, "not moved past the gap")
                let due = try #require(await components.backfillNotifications().first)
                #expect(due.start == now.addingTimeInterval(-900) && due.recorded == 1)
                // A date at or before the cursor's start covers it: the cursor moves.
                clock.advance(60)
                _ = await components.backfillNotifications(since: now.addingTimeInterval(-Self.day))
                let moved = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                #expect(moved.coveredUntilMilliseconds == clock.now.epochMilliseconds)
            }
        }
    }

    @Test("a graceful shutdown cancels a window in flight at once: not counted as failed, the cursor left for the next start")
    func gracefulShutdownMidWindow() async throws {
        let clock = Clock()
        let store = Self.store()
        let gate = SimulatedGate()
        store.inject(.hold(gate), for: .notificationHistory, times: nil)
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                let service = try #require(components.services.first { $0 is NotificationBackfillService })
                let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    tasks.addTask { try await group.run() }
                    for _ in 0..<1200 where gate.arrivals == 0 {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    #expect(gate.arrivals == 1, "the window is waiting on Apple")
                    await group.triggerGracefulShutdown()
                    try await tasks.next()
                }
                gate.open()
                let state = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle)
                #expect(state.windows == 0)
                let metrics = String(decoding: components.metrics.exposition(), as: UTF8.self)
                #expect(metrics.contains(#"receiptkit_notification_backfill_windows_total{environment="Production",bundle_id="com.example.app",result="failed"} 0"#), "\(metrics)")
            }
        }
    }

    @Test("a notification that cannot be recorded for good is refused with its reason; the window completes")
    func refusalsAreCounted() async throws {
        let clock = Clock()
        let now = clock.now
        let store = Self.store()
        try Self.add(store, "sandbox", at: now.addingTimeInterval(-3_600), environment: .sandbox)
        // Signed an hour ahead of the clock (past the 5 minutes' skew), sent 10 minutes ago.
        try Self.add(store, "future", at: now.addingTimeInterval(3_600), attempt: now.addingTimeInterval(-600))
        try Self.add(store, "fine", at: now.addingTimeInterval(-7_200))
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                let report = try #require(await components.backfillNotifications().first)
                #expect(report.completed)
                #expect(report.refused == ["notification_of_another_app": 1, "notification_signed_in_future": 1], "\(report.refused)")
                #expect(report.recorded == 1)
                #expect(try await Self.recordedUUIDs(ledger) == ["fine"])
            }
        }
    }

    @Test("another instance's live lease: this one skips the app and asks Apple nothing",
          .enabled(if: LedgerBackend.available.contains(.postgres), Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func heldElsewhere() async throws {
        let clock = Clock()
        let store = Self.store()
        try await LedgerBackend.postgres.withLedger { ledger in
            let other = LedgerBackfillLease(
                environment: .production, bundleIdentifier: N.bundle, holder: "another-instance",
                atMilliseconds: clock.now.epochMilliseconds, leaseMilliseconds: 60_000)
            #expect(try await ledger.leaseNotificationBackfill(other))
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                let report = try #require(await components.backfillNotifications().first)
                #expect(report.heldElsewhere && !report.completed && report.failure == nil)
                #expect(store.requestCount(.notificationHistory) == 0)
                // Once it lapses, this instance runs the window.
                clock.advance(61)
                let later = try #require(await components.backfillNotifications().first)
                #expect(later.completed && !later.heldElsewhere)
                #expect(store.requestCount(.notificationHistory) == 1)
            }
        }
    }

    @Test("the service runs a window at start, then one every interval, until it shuts down")
    func runsOnASchedule() async throws {
        let clock = Clock()
        let store = Self.store()
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await Self.withBackfill(ledger, store: store, clock: clock) { components in
                var configuration = NotificationBackfillConfiguration()
                configuration.interval = .milliseconds(50)
                let service = NotificationBackfillService(
                    configuration: configuration, clients: try #require(components.backfill).apps.reduce(into: [:]) {
                        $0[$1.environment, default: [:]][$1.bundleIdentifier] = $1.client
                    }, verifier: components.verifier, logger: Logger(label: "test"), now: { clock.now })
                let running = Task { try await service.run() }
                var windows: Int64 = 0
                for _ in 0..<1200 where windows < 3 {
                    try await Task.sleep(for: .milliseconds(50))
                    windows = try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: N.bundle).windows
                }
                running.cancel()
                try await running.value
                #expect(windows >= 3, "a window at start and at least two more")
                #expect(store.requestCount(.notificationHistory) >= 3)
            }
        }
    }

    @Test("the backfill runs beside the server when on (the default), not when off, and not for an app without a private key")
    func partOfTheServiceWhenOn() async throws {
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            var on = try Self.configuration(baseURL: "http://127.0.0.1:9")
            #expect(try ServiceComponents(configuration: on, ledger: ledger, now: { ServiceTestPKI.now }).services
                .contains { $0 is NotificationBackfillService })
            on.notifications.backfill.isEnabled = false
            let off = try ServiceComponents(configuration: on, ledger: ledger, now: { ServiceTestPKI.now })
            #expect(!off.services.contains { $0 is NotificationBackfillService })
            #expect(off.backfill != nil, "receiptkit notifications backfill still runs it once")
            var publicOnly = try L.configuration()
            publicOnly.appStoreServerAPI.apps = [
                try AppStoreServerAPIAppConfiguration(
                    bundleIdentifier: N.bundle, keyID: B.keyID, issuerID: B.issuer, publicKey: B.key.publicKey)
            ]
            let mirror = try ServiceComponents(configuration: publicOnly, ledger: ledger, now: { ServiceTestPKI.now })
            #expect(mirror.backfill == nil)
            #expect(await mirror.backfillNotifications().isEmpty)
        }
    }

    @Test("pages that do not end — a paginationToken seen before, or none while hasMore — fail the window",
          arguments: [
            #"{"hasMore":true,"paginationToken":"next","notificationHistory":[]}"#,
            #"{"hasMore":true,"notificationHistory":[]}"#,
          ])
    func pagesThatDoNotEnd(second: String) async throws {
        let transport = ScriptedTransport([
            ScriptedTransport.json(200, #"{"hasMore":true,"paginationToken":"next","notificationHistory":[]}"#),
            ScriptedTransport.json(200, second),
            ScriptedTransport.json(200, #"{"hasMore":false,"notificationHistory":[]}"#),
        ])
        var configuration = try AppStoreServerAPIConfiguration(
            key: try AppStoreServerAPIKey(issuerID: B.issuer, keyID: B.keyID, privateKey: B.key),
            bundleIdentifier: N.bundle, environment: .production, baseURL: "http://127.0.0.1:1")
        configuration.retryPolicy = RetryPolicy(maximumAttempts: 1, maximumTotalDelay: .zero, baseDelay: .zero, maximumDelay: .zero)
        let client = try AppStoreServerAPIClient(
            configuration: configuration, transport: transport, runtime: PinnedRuntime(now: ServiceTestPKI.now).runtime)
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            let components = try ServiceComponents(configuration: try L.configuration(), ledger: ledger, now: { ServiceTestPKI.now })
            let backfill = NotificationBackfill(
                environment: .production, bundleIdentifier: N.bundle, client: client, verifier: components.verifier)
            let report = await backfill.run(
                NotificationBackfillReport(
                    environment: .production, bundleIdentifier: N.bundle, start: ServiceTestPKI.now.addingTimeInterval(-60),
                    end: ServiceTestPKI.now, onlyFailures: false))
            #expect(report.failure?.code == "pagination")
            #expect(report.pages == 2)
            #expect(transport.requests.count == 2, "the third page is never asked for")
        }
    }

    @Test("windows: from the cursor or the newest held less one interval, else the look-back; never past 180 days")
    func windows() async throws {
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            let components = try ServiceComponents(
                configuration: try Self.configuration(baseURL: "http://127.0.0.1:9"), ledger: ledger, now: { ServiceTestPKI.now })
            let service = try #require(components.backfill)
            let now: Int64 = 200 * 86_400_000
            func window(_ state: LedgerBackfillState) -> [Int64]? {
                service.window(state, nowMilliseconds: now).map { [$0.start, $0.end] }
            }
            #expect(window(LedgerBackfillState()) == [now - 10 * 86_400_000, now])
            #expect(window(LedgerBackfillState(newestNotificationMilliseconds: now - 5_000_000)) == [now - 5_900_000, now])
            #expect(
                window(LedgerBackfillState(coveredUntilMilliseconds: now - 1_000_000, newestNotificationMilliseconds: now - 5_000_000))
                    == [now - 1_900_000, now])
            // Down for a year: as far back as Apple allows, a day to spare.
            #expect(window(LedgerBackfillState(coveredUntilMilliseconds: 0)) == [now - 179 * 86_400_000, now])
            // A stored time at the edge of Int64 saturates rather than wrapping into a window that never comes.
            #expect(window(LedgerBackfillState(newestNotificationMilliseconds: .min)) == [now - 179 * 86_400_000, now])
            // A cursor ahead of the clock: nothing to ask.
            #expect(window(LedgerBackfillState(coveredUntilMilliseconds: now + 3_600_000)) == nil)
        }
    }
}
