import AppStorePKI
import AppStoreServerAPI
import struct Foundation.Date
import Logging
import ReceiptKit
import ReceiptLedger
import ServiceLifecycle

/// The service's notification backfill (``NotificationBackfillConfiguration``): a lifecycle service beside the
/// server that runs a window for every app with an App Store Server API client at start, then every interval, until
/// the service shuts down; and, once, what `receiptkit notifications backfill` runs (``runWindows(since:onlyFailures:progress:)``).
final class NotificationBackfillService: Service, Sendable {
    /// How far back a window may start: Apple keeps 180 days and checks each page's request against its clock, so
    /// a day less — for clocks apart and for a window whose pages take long.
    static let earliestMilliseconds: Int64 = 179 * 86_400_000

    let configuration: NotificationBackfillConfiguration
    let apps: [NotificationBackfill]
    let ledger: any Ledger
    let metrics: ServiceMetrics
    let logger: Logger
    let now: @Sendable () -> Date
    /// How long a lease on an app's backfill holds if its instance never ends it; renewed before every page, so
    /// longer than one page may take (two API requests' whole budget, at least two minutes).
    let leaseMilliseconds: Int64
    /// Who this instance is in leases taken through a shared ledger.
    let holder = String(UInt64.random(in: 1...UInt64.max), radix: 16) + String(UInt64.random(in: 1...UInt64.max), radix: 16)

    init(
        configuration: NotificationBackfillConfiguration,
        clients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]],
        requestBudget: Duration = .seconds(60),
        verifier: ReceiptVerifier,
        logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.apps = clients.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { environment in
            (clients[environment] ?? [:]).sorted { $0.key < $1.key }.map { bundle, client in
                NotificationBackfill(environment: environment, bundleIdentifier: bundle, client: client, verifier: verifier)
            }
        }
        self.ledger = verifier.ledger
        self.metrics = verifier.metrics
        self.logger = logger
        self.now = now
        self.leaseMilliseconds = max(120_000, Self.milliseconds(requestBudget).multipliedReportingOverflow(by: 2).partialValue)
        self.metrics.trackNotifications(of: self.apps.map(Self.metricsApp))
    }

    static func metricsApp(_ app: NotificationBackfill) -> ServiceMetrics.NotificationApp {
        ServiceMetrics.NotificationApp(environment: app.environment.rawValue, bundleIdentifier: app.bundleIdentifier)
    }

    /// A window at start, then one every interval, until the service shuts down gracefully or is cancelled.
    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // A graceful shutdown cancels a window in flight: its cursor stays, and the next start runs it again.
            _ = await cancelWhenGracefulShutdown { await self.runWindows() }
            do {
                let interval = self.configuration.interval
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }

    /// One window for every app, in turn.
    /// - Parameters:
    ///   - since: Where the windows start; `nil`: from each app's cursor (``window(_:nowMilliseconds:)``).
    ///   - onlyFailures: Only notifications Apple could not deliver (then the cursor does not move: what was
    ///     delivered is not known to be in the ledger).
    ///   - progress: Each app's report so far, after each page.
    func runWindows(
        since: Date? = nil, onlyFailures: Bool = false,
        progress: @escaping @Sendable (NotificationBackfillReport) -> Void = { _ in }
    ) async -> [NotificationBackfillReport] {
        var reports: [NotificationBackfillReport] = []
        for app in self.apps {
            guard !Task.isCancelled, !Task.isShuttingDownGracefully else { break }
            reports.append(await self.runWindow(app, since: since, onlyFailures: onlyFailures, progress: progress))
        }
        return reports
    }

    /// The window's start and end for an app whose backfill stands at `state`: from the cursor (else the newest
    /// notification held, else the look-back) less one interval, to now; never before Apple's 180 days. `nil` when
    /// it would be empty.
    func window(_ state: LedgerBackfillState, nowMilliseconds: Int64) -> (start: Int64, end: Int64)? {
        let overlap = Self.milliseconds(self.configuration.interval)
        let earliest = Self.minus(nowMilliseconds, Self.earliestMilliseconds)
        let from = state.coveredUntilMilliseconds ?? state.newestNotificationMilliseconds
        let start = from.map { Self.minus($0, overlap) } ?? Self.minus(nowMilliseconds, Self.milliseconds(self.configuration.lookBack))
        let clamped = max(start, earliest)
        return clamped < nowMilliseconds ? (clamped, nowMilliseconds) : nil
    }

    /// `a - b`, saturated at `Int64.min` and `.max` (stored times are inputs).
    static func minus(_ a: Int64, _ b: Int64) -> Int64 {
        let result = a.subtractingReportingOverflow(b)
        return result.overflow ? (b > 0 ? .min : .max) : result.partialValue
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let whole = seconds.multipliedReportingOverflow(by: 1000)
        return whole.overflow ? .max : whole.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
    }

    private func runWindow(
        _ app: NotificationBackfill, since: Date?, onlyFailures: Bool,
        progress: @escaping @Sendable (NotificationBackfillReport) -> Void
    ) async -> NotificationBackfillReport {
        let started = self.now()
        let nowMilliseconds = started.epochMilliseconds
        var report = NotificationBackfillReport(
            environment: app.environment, bundleIdentifier: app.bundleIdentifier, start: started, end: started,
            onlyFailures: onlyFailures)
        let lease: @Sendable (Int64) -> LedgerBackfillLease = { at in
            LedgerBackfillLease(
                environment: app.environment, bundleIdentifier: app.bundleIdentifier, holder: self.holder,
                atMilliseconds: at, leaseMilliseconds: self.leaseMilliseconds)
        }
        // Read first, lease or not: every instance's newest-notification gauge follows the shared ledger.
        let state: LedgerBackfillState
        do throws(LedgerError) {
            state = try await self.ledger.notificationBackfillState(
                environment: app.environment, bundleIdentifier: app.bundleIdentifier)
        } catch {
            return self.failed(report, app, .init(code: "ledger_unavailable", message: "the backfill cursor: \(error.reason)"))
        }
        if let newest = state.newestNotificationMilliseconds {
            self.metrics.noteNotification(Self.metricsApp(app), signedMilliseconds: newest)
        }
        do throws(LedgerError) {
            guard try await self.ledger.leaseNotificationBackfill(lease(nowMilliseconds)) else {
                report.heldElsewhere = true
                return report
            }
        } catch {
            return self.failed(report, app, .init(code: "ledger_unavailable", message: "the backfill lease: \(error.reason)"))
        }
        // The window the cursor calls for; a window from `since` moves the cursor only when it covers that one's
        // start too (else it would skip what lies between).
        let due = self.window(state, nowMilliseconds: nowMilliseconds)
        let window: (start: Int64, end: Int64)?
        var movesCursor = !onlyFailures
        if let since {
            let start = max(since.epochMilliseconds, Self.minus(nowMilliseconds, Self.earliestMilliseconds))
            window = start < nowMilliseconds ? (start, nowMilliseconds) : nil
            if let due, let window, window.start > due.start { movesCursor = false }
        } else {
            window = due
        }
        guard let window else {
            await self.endLease(lease(nowMilliseconds))
            return report
        }
        // A first window (no cursor yet) starts from where it would start again if it fails: its start is kept
        // before it runs, so that notifications recorded meanwhile do not move the next one's start past what it
        // missed.
        if since == nil, movesCursor, state.coveredUntilMilliseconds == nil {
            do throws(LedgerError) {
                try await self.ledger.startNotificationBackfill(
                    environment: app.environment, bundleIdentifier: app.bundleIdentifier,
                    coveredUntilMilliseconds: window.start.addingReportingOverflow(Self.milliseconds(self.configuration.interval)).partialValue,
                    atMilliseconds: nowMilliseconds)
            } catch {
                await self.endLease(lease(nowMilliseconds))
                return self.failed(report, app, .init(code: "ledger_unavailable", message: "the backfill cursor: \(error.reason)"))
            }
        }
        report.start = Date(epochMilliseconds: window.start)
        report.end = Date(epochMilliseconds: window.end)
        let ledger = self.ledger
        let now = self.now
        report = await app.run(
            report,
            renew: {
                do throws(LedgerError) {
                    return try await ledger.leaseNotificationBackfill(lease(now().epochMilliseconds))
                        ? nil : .init(code: "lease_lost", message: "another instance took the app's backfill over")
                } catch {
                    return .init(code: "ledger_unavailable", message: "the backfill lease: \(error.reason)")
                }
            },
            progress: progress)
        if report.failure == nil, movesCursor {
            do throws(LedgerError) {
                try await self.ledger.recordNotificationBackfill(
                    environment: app.environment, bundleIdentifier: app.bundleIdentifier,
                    coveredUntilMilliseconds: window.end, atMilliseconds: self.now().epochMilliseconds)
            } catch {
                report.failure = .init(code: "ledger_unavailable", message: "the backfill cursor: \(error.reason)")
            }
        }
        await self.endLease(lease(self.now().epochMilliseconds))
        guard let failure = report.failure else {
            self.metrics.countBackfillWindow(Self.metricsApp(app), completed: true, recovered: report.recorded)
            self.logger.log(
                level: report.recorded > 0 || report.refusedCount > 0 ? .notice : .debug,
                "notification backfill",
                metadata: Self.metadata(report))
            return report
        }
        return self.failed(report, app, failure)
    }

    private func failed(
        _ report: NotificationBackfillReport, _ app: NotificationBackfill, _ failure: NotificationBackfillReport.Failure
    ) -> NotificationBackfillReport {
        var report = report
        report.failure = failure
        // Cut short by the service's shutdown: neither a failure to count nor one to warn of (the cursor did not
        // move; the next start runs the window again).
        guard !Task.isCancelled else {
            self.logger.debug("notification backfill cut short by the shutdown", metadata: Self.metadata(report))
            return report
        }
        self.metrics.countBackfillWindow(Self.metricsApp(app), completed: false, recovered: report.recorded)
        var metadata = Self.metadata(report)
        metadata["failure"] = "\(failure)"
        self.logger.warning("notification backfill failed; the next window runs it again", metadata: metadata)
        return report
    }

    /// Ends the lease in a task of its own, which a shutdown's cancellation does not reach: a lease left behind
    /// would keep the app from the next start's first window until it lapses.
    private func endLease(_ lease: LedgerBackfillLease) async {
        let ledger = self.ledger
        await Task { try? await ledger.endNotificationBackfill(lease) }.value
    }

    static func metadata(_ report: NotificationBackfillReport) -> Logger.Metadata {
        [
            "environment": "\(report.environment.rawValue)", "bundle_id": "\(report.bundleIdentifier)",
            "start_ms": "\(report.start.epochMilliseconds)", "end_ms": "\(report.end.epochMilliseconds)",
            "found": "\(report.found)", "recorded": "\(report.recorded)", "duplicates": "\(report.duplicates)",
            "refused": "\(report.refusedCount)",
        ]
    }
}
