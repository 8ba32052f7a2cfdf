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
    /// How long a lease on an app's backfill holds if its instance never ends it; renewed before every page.
    static let leaseMilliseconds: Int64 = 120_000
    /// How far back Apple lets Get Notification History start: 180 days, less a minute for clocks apart.
    static let earliestMilliseconds: Int64 = 180 * 86_400_000 - 60_000

    let configuration: NotificationBackfillConfiguration
    let apps: [NotificationBackfill]
    let ledger: any Ledger
    let metrics: ServiceMetrics
    let logger: Logger
    let now: @Sendable () -> Date
    /// Who this instance is in leases taken through a shared ledger.
    let holder = String(UInt64.random(in: 1...UInt64.max), radix: 16) + String(UInt64.random(in: 1...UInt64.max), radix: 16)

    init(
        configuration: NotificationBackfillConfiguration,
        clients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]],
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
        self.metrics.trackNotifications(of: self.apps.map(Self.metricsApp))
    }

    static func metricsApp(_ app: NotificationBackfill) -> ServiceMetrics.NotificationApp {
        ServiceMetrics.NotificationApp(environment: app.environment.rawValue, bundleIdentifier: app.bundleIdentifier)
    }

    /// A window at start, then one every interval, until the service shuts down gracefully or is cancelled.
    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            _ = await self.runWindows()
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
            guard !Task.isCancelled else { break }
            reports.append(await self.runWindow(app, since: since, onlyFailures: onlyFailures, progress: progress))
        }
        return reports
    }

    /// The window's start and end for an app whose backfill stands at `state`: from the cursor (else the newest
    /// notification held, else the look-back) less one interval, to now; never before Apple's 180 days. `nil` when
    /// it would be empty.
    func window(_ state: LedgerBackfillState, nowMilliseconds: Int64) -> (start: Int64, end: Int64)? {
        let overlap = Self.milliseconds(self.configuration.interval)
        let earliest = nowMilliseconds.subtractingReportingOverflow(Self.earliestMilliseconds).partialValue
        let from = state.coveredUntilMilliseconds ?? state.newestNotificationMilliseconds
        let start = from.map { $0.subtractingReportingOverflow(overlap).partialValue }
            ?? nowMilliseconds.subtractingReportingOverflow(Self.milliseconds(self.configuration.lookBack)).partialValue
        let clamped = max(start, earliest)
        return clamped < nowMilliseconds ? (clamped, nowMilliseconds) : nil
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
                atMilliseconds: at, leaseMilliseconds: Self.leaseMilliseconds)
        }
        let state: LedgerBackfillState
        do throws(LedgerError) {
            guard try await self.ledger.leaseNotificationBackfill(lease(nowMilliseconds)) else {
                report.heldElsewhere = true
                return report
            }
            state = try await self.ledger.notificationBackfillState(
                environment: app.environment, bundleIdentifier: app.bundleIdentifier)
        } catch {
            return self.failed(report, app, .init(code: "ledger_unavailable", message: "the backfill cursor: \(error.reason)"))
        }
        if let newest = state.newestNotificationMilliseconds {
            self.metrics.noteNotification(Self.metricsApp(app), signedMilliseconds: newest)
        }
        let window: (start: Int64, end: Int64)?
        if let since {
            let start = max(since.epochMilliseconds, nowMilliseconds.subtractingReportingOverflow(Self.earliestMilliseconds).partialValue)
            window = start < nowMilliseconds ? (start, nowMilliseconds) : nil
        } else {
            window = self.window(state, nowMilliseconds: nowMilliseconds)
        }
        guard let window else {
            await self.endLease(lease(nowMilliseconds))
            return report
        }
        report.start = Date(epochMilliseconds: window.start)
        report.end = Date(epochMilliseconds: window.end)
        let ledger = self.ledger
        let now = self.now
        report = await app.run(
            report,
            renew: { (try? await ledger.leaseNotificationBackfill(lease(now().epochMilliseconds))) ?? false },
            progress: progress)
        if report.failure == nil, !onlyFailures {
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

    private func endLease(_ lease: LedgerBackfillLease) async {
        try? await self.ledger.endNotificationBackfill(lease)
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
