import AppStorePKI
import AppStoreJWS
import AppStoreServerAPI
import struct Foundation.Date
import Logging
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptLedger
import ServiceLifecycle
import _ReceiptKitShared

/// The service as the bridge to the App Store Server API: refreshes the ledger for `/verifyReceipt` from Apple's
/// records, one fetch per receipt (Apple answers with the whole customer's) and at most one at a time per original
/// transaction id, within what a request may wait.
///
/// It runs as a lifecycle service beside the server (``ServiceComponents/services``, which the composition root
/// runs): every fetch is a child task of its ``run()``, so a refresh a request stopped waiting for finishes in the
/// background, and all of them are cancelled when the service stops. It runs in one application at a time. Refreshes are bounded in number
/// (``AppStoreServerAPIBridgeConfiguration/maximumRefreshes`` in each environment, each receipt's refresh counted
/// once however many ids it covers, and each app held to an equal share of it), and an original transaction id
/// whose refresh failed is not asked for again before ``AppStoreServerAPIBridgeConfiguration/failureBackoff`` —
/// that customer's ids alone. While it does not run, nothing is fetched and answers come from the ledger.
final class AppStoreServerAPIBridge: Service, LedgerRefreshing, Sendable {
    typealias Job = @Sendable () async -> Void

    private struct State {
        /// Where refreshes are submitted while ``run()`` runs; `nil` otherwise (a stopped bridge runs again when an
        /// application using it starts again).
        var submit: AsyncStream<Job>.Continuation?
        /// Refreshes in flight, by key (a receipt's refresh under each of its due ids).
        var flights: [RefreshKey: RefreshFlight] = [:]
        /// Refreshes in flight, each counted once however many ids it covers, by app: what the budgets count.
        var running: [AppKey: Int] = [:]
        /// When a key's last refresh failed, in milliseconds of the service's clock. Not counted in the budgets:
        /// one customer's failure backs off that customer's ids, and no one else's refresh.
        var failures: [RefreshKey: Int64] = [:]
        /// Until when an app (bundle id and environment) asks Apple nothing: its key was refused, or it was rate
        /// limited. One entry per configured app and environment at most.
        var paused: [AppKey: Int64] = [:]
        /// How Apple last answered each app that called it; absent before the first call.
        var conditions: [AppKey: APIAppCondition] = [:]
    }

    /// An app in an environment: what Apple refuses or rate-limits as a whole.
    struct AppKey: Hashable, Sendable {
        let environment: AppStoreEnvironment
        let bundleIdentifier: String

        init(_ key: RefreshKey) {
            (self.environment, self.bundleIdentifier) = (key.environment, key.bundleIdentifier)
        }
    }

    /// What a request found for one due key.
    enum Admission {
        /// A new refresh was started, or one in flight joined: wait for it.
        case wait(RefreshFlight)
        /// Nothing to wait for: the answer comes from the ledger, for this reason (the refresh metric's `result`).
        case skip(APIRefreshResult)
    }

    let configuration: AppStoreServerAPIBridgeConfiguration
    let ledger: any Ledger
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date
    /// Where a change of an app's condition is said (once per change, not per call).
    let logger: Logger
    /// A client per environment and bundle id.
    let clients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]]
    /// Who this bridge is in claims made through a shared ledger (``coordinatedFetch(_:)``).
    let holder = String(UInt64.random(in: 1...UInt64.max), radix: 16) + String(UInt64.random(in: 1...UInt64.max), radix: 16)
    private let state = NIOLockedValueBox(State())

    /// A bridge asking `clients`; the composition root (``ServiceComponents``) makes them.
    /// - Parameters:
    ///   - configuration: How often, how long and how much to refresh.
    ///   - clients: A client per environment and bundle id, whose signed data passes the service's anchors and
    ///     revocation check.
    ///   - ledger: Where refreshed data is written.
    ///   - metrics: Where API calls and refreshes are counted.
    ///   - logger: Where an app's change of condition (key refused, rate limited, Apple unavailable, answering again)
    ///     is logged.
    ///   - now: The service's clock (failure and pause times, refresh times).
    init(
        configuration: AppStoreServerAPIBridgeConfiguration,
        clients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]],
        ledger: any Ledger,
        metrics: ServiceMetrics,
        logger: Logger = Logger(label: "receiptkit.app-store-server-api"),
        now: @escaping @Sendable () -> Date
    ) {
        self.logger = logger
        self.configuration = configuration
        self.clients = clients
        self.ledger = ledger
        self.metrics = metrics
        self.now = now
    }

    /// Whether receipts of `bundleIdentifier` in `environment` are refreshed.
    func refreshes(bundleIdentifier: String, environment: AppStoreEnvironment) -> Bool {
        self.clients[environment]?[bundleIdentifier] != nil
    }

    /// Runs the refreshes requests start, each a child task, until the service shuts down (gracefully or by
    /// cancellation); then cancels those still running and refuses new ones. It may run again once stopped.
    /// - Throws: ``AlreadyRunning`` when it runs already (in another application): one bridge, one run at a time.
    func run() async throws {
        guard let jobs = self.acquire() else { throw AlreadyRunning() }
        defer { self.stop() }
        // A plain task group (a discarding one needs macOS 14): a finished child is reaped before the group holds
        // more than the most refreshes that can be in flight, so it never grows past that bound.
        // Each environment with clients has its own budget: room for both, or one's jobs would queue behind the
        // other's.
        let environments = max(1, self.clients.values.filter { !$0.isEmpty }.count)
        let bound = max(1, self.configuration.maximumRefreshes) * environments
        await withTaskGroup(of: Void.self) { group in
            var children = 0
            for await job in jobs.cancelOnGracefulShutdown() {
                if children >= bound, await group.next() != nil { children -= 1 }
                group.addTask { await job() }
                children += 1
            }
            // Refuse new refreshes before cancelling the running ones: a request now answers from the ledger at
            // once (not after waiting for a job that will never run), and a fetch cut short by the shutdown is not
            // remembered as a failure to back off from when the bridge runs again.
            self.closeSubmissions()
            group.cancelAll()
        }
    }

    /// Why a second run of a bridge that runs stops at once: the components it belongs to are run by two
    /// applications at the same time.
    struct AlreadyRunning: Error, CustomStringConvertible {
        var description: String {
            "the App Store Server API refresh runs already: run one ServiceComponents' services in one application at a time"
        }
    }

    /// Refreshes `keys` (each due, all of one receipt) and waits at most `wait`.
    ///
    /// Apple answers a history or statuses request with everything the customer bought, whichever of their
    /// transactions it names, so one fetch covers a receipt: it joins a fetch already in flight for one of the
    /// keys, or starts one for the first that also stamps the others.
    /// - Returns: Whether the ledger was refreshed in time (the caller reads it again).
    func refresh(_ keys: [RefreshKey], wait: Duration) async -> Bool {
        // A new fetch leads with the receipt's smallest due id: other instances, given the same receipt, claim the
        // same customer in a shared ledger.
        guard let first = keys.min(by: { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }) else {
            return false
        }
        let running = self.state.withLockedValue { state in keys.first { state.flights[$0] != nil } }
        let lead = running ?? first
        let companions = keys.filter { $0 != lead }
        let flight: RefreshFlight
        switch self.admit(lead, covering: companions) {
        case .wait(let admitted):
            flight = admitted
        case .skip(let result):
            self.metrics.countAPIRefresh(result)
            return false
        }
        let ended: Void? = try? await withDeadline(wait) { _ = await flight.outcome() }
        if ended == nil, !flight.hasEnded {
            // Apple is slow or down: answer from the ledger now; the refresh finishes in the background.
            flight.moveToBackground()
            self.metrics.countAPIRefresh(.background)
        }
        return flight.hasRefreshed
    }

    /// Starts a refresh of `key`, joins the one in flight, or says why neither. A refresh started is registered
    /// under `companions` too (the receipt's other due ids, none of them in flight): a request for one of them joins
    /// it rather than asking Apple for the same customer again, and its failure backs them all off.
    func admit(_ key: RefreshKey, covering companions: [RefreshKey] = []) -> Admission {
        let nowMilliseconds = self.now().epochMilliseconds
        let backoff = DurationConversion.milliseconds(self.configuration.failureBackoff)
        return self.state.withLockedValue { state -> Admission in
            guard let submit = state.submit else { return .skip(.notRunning) }
            if let flight = state.flights[key] {
                return flight.isBackground ? .skip(.inBackground) : .wait(flight)
            }
            if let until = state.paused[AppKey(key)] {
                guard until <= nowMilliseconds else { return .skip(.paused) }
                state.paused.removeValue(forKey: AppKey(key))
            }
            if let failed = state.failures[key] {
                if Self.elapsed(from: failed, to: nowMilliseconds) < backoff { return .skip(.backoff) }
                state.failures.removeValue(forKey: key)
            }
            let app = AppKey(key)
            let inEnvironment = state.running.reduce(0) { $0 + ($1.key.environment == key.environment ? $1.value : 0) }
            guard inEnvironment < self.configuration.maximumRefreshes,
                state.running[app, default: 0] < self.share(of: key.environment)
            else { return .skip(.busy) }
            let flight = RefreshFlight()
            let job: Job = { [self] in
                switch await self.coordinatedFetch(key) {
                case .fetched(let end): self.complete(key, flight: flight, end: end)
                case .skipped(let result, let until): self.complete(key, flight: flight, skipped: result, until: until)
                }
            }
            guard case .enqueued = submit.yield(job) else { return .skip(.notRunning) }
            state.flights[key] = flight
            for companion in companions where state.flights[companion] == nil { state.flights[companion] = flight }
            state.running[app, default: 0] += 1
            return .wait(flight)
        }
    }

    /// The refreshes one app may run at once in `environment`: an equal share of the environment's budget between
    /// the apps refreshed there (all of it for one app), at least one.
    func share(of environment: AppStoreEnvironment) -> Int {
        max(1, self.configuration.maximumRefreshes / max(1, self.clients[environment]?.count ?? 1))
    }

    /// The most ids backing off at once: past it, a failure is remembered only as far as it fits (an
    /// id not remembered is merely due again, and asked within the budgets).
    static let maximumBackoffEntries = 100_000

    /// The longest an app is paused for one 429, whatever its `Retry-After` asks.
    static let longestRateLimitPause: Duration = .seconds(3600)

    /// Pauses `key`'s app after Apple refused its key (401, 403) or rate-limited it (429, for its `Retry-After`
    /// within ``longestRateLimitPause``): its other ids would only meet the same answer — nor those of the other
    /// instances sharing a PostgreSQL ledger, which are told.
    func pause(_ key: RefreshKey, after error: AppStoreServerAPIError) async {
        let pause: Duration
        switch error.code {
        case .unauthorized, .forbidden: pause = self.configuration.refusedKeyPause
        case .rateLimited:
            let asked = error.retryAfter ?? .zero
            pause = min(max(self.configuration.failureBackoff, asked), Self.longestRateLimitPause)
            if asked > Self.longestRateLimitPause {
                // A Retry-After of a day would keep the app's customers on the ledger alone until then.
                self.logger.notice(
                    "Apple asked to wait longer than the bridge pauses an app: pausing for the longest",
                    metadata: [
                        "bundle_id": "\(key.bundleIdentifier)", "environment": "\(key.environment.rawValue)",
                        "retry_after_seconds": "\(asked.components.seconds)",
                        "pause_seconds": "\(Self.longestRateLimitPause.components.seconds)",
                    ])
            }
        default: return
        }
        let (until, overflow) = self.now().epochMilliseconds.addingReportingOverflow(DurationConversion.milliseconds(pause))
        let end = overflow ? Int64.max : until
        self.pauseHere(AppKey(key), until: end)
        if self.ledger.coordinatesAPIRefreshes {
            try? await self.ledger.pauseAPIApp(
                environment: key.environment, bundleIdentifier: key.bundleIdentifier, untilMilliseconds: end)
        }
    }

    /// Pauses `app` in this process until `until` (milliseconds of the service's clock).
    func pauseHere(_ app: AppKey, until: Int64) {
        self.state.withLockedValue { state in
            guard state.submit != nil else { return }
            state.paused[app] = max(state.paused[app] ?? .min, until)
        }
    }

    /// Ends a refresh: out of the table, a failure (a refresh not complete, and not cut short by cancellation)
    /// remembered for the backoff, its waiters resumed with whether the ledger was written (they read it again).
    private func complete(_ key: RefreshKey, flight: RefreshFlight, end: RefreshEnd) {
        // A fetch its task's cancellation cut short (the service stopping, however it stops) is no failure of
        // Apple's: nothing to back off from when the bridge runs again.
        let failed = end != .complete && !Task.isCancelled
        self.end(
            key, flight: flight, failedAt: failed ? self.now().epochMilliseconds : nil,
            counted: end == .complete ? .fetched : .failed)
        flight.finish(end.wroteLedger)
    }

    /// Ends a refresh that asked Apple nothing, for `result` (another instance's claim, backoff or pause): out of
    /// the table, its waiters told nothing was written. A backoff the ledger reported is remembered here too, to
    /// end when the ledger's does (`until`).
    private func complete(_ key: RefreshKey, flight: RefreshFlight, skipped result: APIRefreshResult, until: Int64?) {
        var failedAt: Int64?
        if result == .backoff {
            let now = self.now().epochMilliseconds
            let backoff = DurationConversion.milliseconds(self.configuration.failureBackoff)
            // Local backoff runs `failureBackoff` from the failure: a failure that ends at `until` failed then.
            failedAt = until.map { min(now, $0.subtractingReportingOverflow(backoff).partialValue) } ?? now
        }
        self.end(key, flight: flight, failedAt: failedAt, counted: result)
        flight.finish(false)
    }

    /// Takes `flight` out of the table (every key it was registered under: the lead's and its companions') and
    /// out of its app's count; with `failedAt`, its keys back off from then, as far as the bound allows.
    private func end(_ key: RefreshKey, flight: RefreshFlight, failedAt: Int64?, counted result: APIRefreshResult) {
        let backoff = DurationConversion.milliseconds(self.configuration.failureBackoff)
        let bound = Self.maximumBackoffEntries
        self.state.withLockedValue { state in
            let covered = state.flights.filter { $0.value === flight }.map(\.key)
            for covered in covered { state.flights.removeValue(forKey: covered) }
            if !covered.isEmpty {
                let app = AppKey(key)
                let left = state.running[app, default: 1] - 1
                state.running[app] = left > 0 ? left : nil
            }
            guard let failedAt, state.submit != nil else { return }
            if state.failures.count + covered.count > bound {
                state.failures = state.failures.filter { Self.elapsed(from: $0.value, to: failedAt) < backoff }
            }
            for covered in covered.prefix(max(0, bound - state.failures.count)) { state.failures[covered] = failedAt }
        }
        self.metrics.countAPIRefresh(result)
    }

    /// Records how Apple answered a call for `key`'s app, and logs a change: a warning when the app enters a
    /// condition other than ``APIAppCondition/answering``, a notice when it answers again.
    func note(_ key: RefreshKey, _ condition: APIAppCondition) {
        let app = AppKey(key)
        let previous = self.state.withLockedValue { state in
            defer { state.conditions[app] = condition }
            return state.conditions[app]
        }
        guard previous != condition else { return }
        let metadata: Logger.Metadata = [
            "bundle_id": "\(app.bundleIdentifier)", "environment": "\(app.environment.rawValue)",
            "condition": "\(condition.rawValue)",
        ]
        if let warning = condition.warning {
            self.logger.warning("\(warning); /verifyReceipt answers from the ledger meanwhile", metadata: metadata)
        } else if previous != nil {
            self.logger.notice("the App Store Server API answers again", metadata: metadata)
        }
    }

    /// The apps whose last call did not succeed, and why, by bundle id then environment (for `/health`).
    var troubledApps: [APIAppTrouble] {
        self.state.withLockedValue { state in
            state.conditions.compactMap { app, condition in
                condition == .answering
                    ? nil
                    : APIAppTrouble(bundleIdentifier: app.bundleIdentifier, environment: app.environment, condition: condition)
            }
        }.sorted { ($0.bundleIdentifier, $0.environment.rawValue) < ($1.bundleIdentifier, $1.environment.rawValue) }
    }

    /// Whether ``run()`` runs: refreshes are admitted.
    var isRunning: Bool { self.state.withLockedValue { $0.submit != nil } }

    /// A new job stream for a run, unless another run holds one.
    private func acquire() -> AsyncStream<Job>? {
        self.state.withLockedValue { state -> AsyncStream<Job>? in
            guard state.submit == nil else { return nil }
            let (jobs, submit) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .unbounded)
            state.submit = submit
            return jobs
        }
    }

    /// Refuses new refreshes, until the next ``run()``.
    private func closeSubmissions() {
        let submit = self.state.withLockedValue { state -> AsyncStream<Job>.Continuation? in
            defer { state.submit = nil }
            return state.submit
        }
        submit?.finish()
    }

    /// Refuses new refreshes (until the next ``run()``) and ends those that never ran.
    private func stop() {
        let (submit, pending) = self.state.withLockedValue { state -> (AsyncStream<Job>.Continuation?, [RefreshFlight]) in
            defer { (state.submit, state.flights, state.running) = (nil, [:], [:]) }
            return (state.submit, Array(state.flights.values))
        }
        submit?.finish()
        for flight in pending { flight.finish(false) }
    }

    /// `to - from`, saturating (a clock set back reads as no time at all).
    static func elapsed(from start: Int64, to end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? (end < start ? 0 : .max) : max(0, difference)
    }
}
