import NIOConcurrencyHelpers
public import struct Foundation.Date
import ReceiptKit
public import Prometheus
public import ReceiptLedger
import _ReceiptKitShared

/// The service's Prometheus metrics, served at `GET /metrics`: the build (`receiptkit_build_info`), requests by
/// endpoint and status, requests refused
/// before a verdict (413/408/503), connections open and closed by the server, the validation latency histogram,
/// ledger writes and failures, the ledger's snapshot cache (whether it answers, its size, hits and misses), and the
/// App Store Server API refresh (calls by outcome, refreshes by result). One
/// registry per service, injected, so tests and several services in one process never share counters.
public struct ServiceMetrics: Sendable {
    /// The registry every metric lives in.
    public let registry: PrometheusCollectorRegistry
    let validationDuration: DurationHistogram
    private let ledgerReceiptsInserted: Counter
    private let ledgerReceiptsKnown: Counter
    private let ledgerTransactionsWritten: Counter
    private let ledgerFailures: Counter
    private let openConnectionsGauge: Gauge
    private let bodyBytesGauge: Gauge
    /// Request counters by endpoint and status, made once (a registry lookup per request would take its lock).
    private let requestCounters: [VerifyReceiptEndpoint: [Int: Counter]]
    /// App Store Server API refresh counters by result, made once: `fresh` is counted on every request of a
    /// configured app.
    private let apiRefreshCounters: [APIRefreshResult: Counter]
    private let cacheEnabled: Gauge
    private let cacheEntries: Gauge
    private let cacheBytes: Gauge
    private let cacheHits: Counter
    private let cacheMisses: Counter
    private let cacheNearMisses: Counter
    /// The cache's hits, misses and near misses when last observed: the counters grow by what was added since.
    private let cacheCounted = NIOLockedValueBox((hits: UInt64(0), misses: UInt64(0), nearMisses: UInt64(0)))
    private let writeTransactions: Counter
    private let batchedWrites: Counter
    /// The ledger's write statistics when last observed.
    private let writesCounted = NIOLockedValueBox(LedgerWriteStatistics(transactions: 0, writes: 0))
    /// The `signedDate` (milliseconds) of the newest notification recorded, for each app the backfill covers
    /// (``trackNotifications(of:)``); `nil` until one is known. Only those apps: a label per bundle id of any valid
    /// notification posted would be a series an outsider could add.
    private let newestNotifications = NIOLockedValueBox([NotificationApp: Int64?]())

    /// An app in an environment, as the notification metrics label it.
    struct NotificationApp: Hashable, Sendable {
        let environment: String
        let bundleIdentifier: String
    }

    /// Creates the metrics in a new registry (or `registry`).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        // Which build answers: a constant 1, its labels the point (`receiptkit_build_info{version="0.1.0"} 1`).
        registry.makeGauge(
            descriptor: Self.descriptor("build_info", "", "The build of ReceiptKit serving, in its labels; always 1."),
            labels: [("version", ReceiptKitVersion.string)]
        ).set(Int64(1))
        self.validationDuration = registry.makeDurationHistogram(
            descriptor: Self.descriptor("validation_duration", "seconds",
                "Time to decode and validate one receipt (queueing excluded)."),
            buckets: [
                .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
                .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100),
                .milliseconds(500), .seconds(1),
            ]
        )
        self.ledgerReceiptsInserted = registry.makeCounter(
            descriptor: Self.ledgerReceipts, labels: [("result", "inserted")])
        self.ledgerReceiptsKnown = registry.makeCounter(
            descriptor: Self.ledgerReceipts, labels: [("result", "already_known")])
        self.ledgerTransactionsWritten = registry.makeCounter(
            descriptor: Self.descriptor("ledger_transactions_written", "total",
                "Transactions inserted or replaced by a newer receipt."))
        var counters: [VerifyReceiptEndpoint: [Int: Counter]] = [:]
        for endpoint in VerifyReceiptEndpoint.allCases {
            for status in VerifyReceiptStatus.all {
                counters[endpoint, default: [:]][status.code] = registry.makeCounter(
                    descriptor: Self.requests,
                    labels: [("endpoint", endpoint.rawValue), ("status", String(status.code))])
            }
        }
        self.requestCounters = counters
        self.ledgerFailures = registry.makeCounter(
            descriptor: Self.descriptor("ledger_failures", "total", "Ledger operations that failed."))
        self.openConnectionsGauge = registry.makeGauge(descriptor: Self.openConnections)
        self.bodyBytesGauge = registry.makeGauge(
            descriptor: Self.descriptor(
                "request_body", "bytes", "Bytes of request bodies held now, of max_in_flight_body_bytes."))
        var refreshCounters: [APIRefreshResult: Counter] = [:]
        for result in APIRefreshResult.allCases {
            refreshCounters[result] = registry.makeCounter(
                descriptor: Self.apiRefreshes, labels: [("result", result.rawValue)])
        }
        self.apiRefreshCounters = refreshCounters
        self.cacheEnabled = registry.makeGauge(
            descriptor: Self.descriptor("ledger_snapshot_cache_enabled", "",
                "1 while the ledger's snapshot cache answers reads (PostgreSQL: while its change listener runs), else 0."))
        self.cacheEntries = registry.makeGauge(
            descriptor: Self.descriptor("ledger_snapshot_cache_entries", "", "Snapshots the ledger's cache holds now."))
        self.cacheBytes = registry.makeGauge(
            descriptor: Self.descriptor("ledger_snapshot_cache", "bytes",
                "The estimated size of the snapshots the ledger's cache holds now (its bound counts this)."))
        self.writeTransactions = registry.makeCounter(
            descriptor: Self.descriptor("ledger_write_transactions", "total",
                "Database transactions that carried the ledger's writes (group commit: concurrent writes share one)."))
        self.batchedWrites = registry.makeCounter(
            descriptor: Self.descriptor("ledger_batched_writes", "total",
                "Writes those transactions carried; divided by ledger_write_transactions_total, the mean batch."))
        self.cacheHits = registry.makeCounter(descriptor: Self.cacheLookups, labels: [("result", "hit")])
        self.cacheMisses = registry.makeCounter(descriptor: Self.cacheLookups, labels: [("result", "miss")])
        self.cacheNearMisses = registry.makeCounter(
            descriptor: Self.descriptor("ledger_snapshot_cache_near_misses", "total",
                "Cache misses of a snapshot looked up not long before: a cache up to four times larger would likely have answered them."))
        // Every series whose labels are known is exposed at 0 from the start, not from its first event: a rate or
        // an alert over it then sees the series before anything happens (the registry hands the same counter back
        // when the event counts it).
        for code in Self.rejectionCodes {
            _ = registry.makeCounter(descriptor: Self.rejections, labels: [("code", String(code))])
        }
        for reason in ConnectionCloseReason.allCases {
            _ = registry.makeCounter(descriptor: Self.closedConnections, labels: [("reason", reason.rawValue)])
        }
        for endpoint in SignedDataEndpoint.allCases {
            for outcome in endpoint.outcomes {
                _ = registry.makeCounter(
                    descriptor: Self.signedData, labels: [("endpoint", endpoint.rawValue), ("outcome", outcome.rawValue)])
            }
        }
        for endpoint in APICall.Endpoint.allCases {
            for outcome in APICall.Outcome.known {
                _ = registry.makeCounter(
                    descriptor: Self.apiCalls, labels: [("endpoint", endpoint.rawValue), ("outcome", outcome.label)])
            }
        }
    }

    /// The statuses of requests refused before a verdict: body too large, too slow, over the in-flight budget, in a
    /// transfer coding not implemented.
    static let rejectionCodes = [413, 408, 503, 501]

    func count(_ answer: VerifyReceiptAnswer, endpoint: VerifyReceiptEndpoint) {
        if let counter = self.requestCounters[endpoint]?[answer.status.code] {
            counter.increment()
        }
    }

    func countHTTPRejection(_ code: Int) {
        self.registry.makeCounter(descriptor: Self.rejections, labels: [("code", String(code))]).increment()
    }

    func countLedgerWrite(_ summary: LedgerWriteSummary) {
        (summary.receiptInserted ? self.ledgerReceiptsInserted : self.ledgerReceiptsKnown).increment()
        if summary.transactionsWritten > 0 {
            self.ledgerTransactionsWritten.increment(by: Int64(summary.transactionsWritten))
        }
    }

    /// Counts a connection the server closed on its own account.
    func countClosedConnection(reason: ConnectionCloseReason) {
        self.registry.makeCounter(descriptor: Self.closedConnections, labels: [("reason", reason.rawValue)])
            .increment()
    }

    /// Sets the number of open connections.
    func setOpenConnections(_ count: Int) {
        self.openConnectionsGauge.set(Int64(count))
    }

    /// Sets the bytes of request bodies held.
    func setBodyBytesHeld(_ bytes: Int) {
        self.bodyBytesGauge.set(Int64(bytes))
    }

    func countLedgerFailure() {
        self.ledgerFailures.increment()
    }

    /// Counts one answer of `POST /notifications/v2` or `POST /jws/verify` by its outcome.
    func countSignedData(endpoint: SignedDataEndpoint, outcome: SignedDataOutcome) {
        self.registry.makeCounter(
            descriptor: Self.signedData, labels: [("endpoint", endpoint.rawValue), ("outcome", outcome.rawValue)]
        ).increment()
    }

    /// Counts one App Store Server API call of the `/verifyReceipt` refresh by endpoint and outcome.
    func countAPICall(_ endpoint: APICall.Endpoint, _ outcome: APICall.Outcome) {
        self.registry.makeCounter(
            descriptor: Self.apiCalls, labels: [("endpoint", endpoint.rawValue), ("outcome", outcome.label)]
        ).increment()
    }

    /// Counts one original transaction id a `/verifyReceipt` request looked at for a refresh, by result.
    func countAPIRefresh(_ result: APIRefreshResult) {
        (self.apiRefreshCounters[result]
            ?? self.registry.makeCounter(descriptor: Self.apiRefreshes, labels: [("result", result.rawValue)]))
            .increment()
    }

    /// Starts keeping the newest notification's age of `apps` (the backfill's), and exposes their backfill series
    /// at 0.
    func trackNotifications(of apps: [NotificationApp]) {
        self.newestNotifications.withLockedValue { newest in
            for app in apps where newest[app] == nil { newest[app] = .some(nil) }
        }
        for app in apps {
            for result in ["completed", "failed"] {
                _ = self.registry.makeCounter(descriptor: Self.backfillWindows, labels: Self.labels(app) + [("result", result)])
            }
            _ = self.registry.makeCounter(descriptor: Self.backfillRecovered, labels: Self.labels(app))
        }
    }

    /// Notes a notification of `app` signed at `signedMilliseconds` recorded (posted or backfilled), or the newest
    /// the ledger holds; an app the backfill does not cover is not kept.
    func noteNotification(_ app: NotificationApp, signedMilliseconds: Int64) {
        self.newestNotifications.withLockedValue { newest in
            guard let known = newest[app] else { return }
            newest[app] = .some(max(known ?? .min, signedMilliseconds))
        }
    }

    /// Counts one backfill window of `app` that completed or failed, and the notifications it recovered (new).
    func countBackfillWindow(_ app: NotificationApp, completed: Bool, recovered: Int) {
        self.registry.makeCounter(
            descriptor: Self.backfillWindows, labels: Self.labels(app) + [("result", completed ? "completed" : "failed")]
        ).increment()
        if recovered > 0 {
            self.registry.makeCounter(descriptor: Self.backfillRecovered, labels: Self.labels(app))
                .increment(by: Int64(clamping: recovered))
        }
    }

    /// Sets each tracked app's `receiptkit_notification_newest_age_seconds` from the service's clock; called before
    /// each exposition.
    public func observe(notificationsAt now: Date) {
        let nowMilliseconds = now.epochMilliseconds
        let newest = self.newestNotifications.withLockedValue { $0 }
        for (app, signed) in newest {
            guard let signed = signed ?? nil else { continue }
            let age = nowMilliseconds.subtractingReportingOverflow(signed)
            self.registry.makeGauge(descriptor: Self.newestNotificationAge, labels: Self.labels(app))
                .set(age.overflow ? Double.infinity : Double(age.partialValue) / 1000)
        }
    }

    private static func labels(_ app: NotificationApp) -> [(String, String)] {
        [("environment", app.environment), ("bundle_id", app.bundleIdentifier)]
    }

    private static var backfillWindows: MetricNameDescriptor {
        Self.descriptor(
            "notification_backfill_windows", "total",
            "Notification backfill windows (Get Notification History) run, by app, environment and result (completed, failed).")
    }

    private static var backfillRecovered: MetricNameDescriptor {
        Self.descriptor(
            "notification_backfill_recovered", "total",
            "Notifications the backfill found that the ledger did not hold (they never arrived), by app and environment.")
    }

    private static var newestNotificationAge: MetricNameDescriptor {
        Self.descriptor(
            "notification_newest_age", "seconds",
            "Seconds since the signedDate of the newest notification recorded, for each app the backfill covers.")
    }

    private static var apiCalls: MetricNameDescriptor {
        Self.descriptor(
            "app_store_api_calls", "total",
            "App Store Server API calls made to refresh the ledger, by endpoint and outcome.")
    }

    private static var apiRefreshes: MetricNameDescriptor {
        Self.descriptor(
            "app_store_api_refreshes", "total",
            "Original transaction ids looked at for an App Store Server API refresh, by result.")
    }

    private static var signedData: MetricNameDescriptor {
        Self.descriptor(
        "signed_data_requests", "total",
        "Notification and JWS requests answered, by endpoint and outcome (recorded, duplicate, valid, invalid, rejected, malformed, unavailable).")
    }

    static func descriptor(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "receiptkit", metricName: name, unitName: unit, helpText: help)
    }

    private static var requests: MetricNameDescriptor {
        Self.descriptor(
        "requests", "total", "verifyReceipt requests answered, by endpoint and status.")
    }
    private static var rejections: MetricNameDescriptor {
        Self.descriptor(
        "http_rejections", "total",
        "Requests refused before a verdict (413 body too large, 408 body too slow or stalled, 503 body budget spent, 501 transfer coding).")
    }
    private static var closedConnections: MetricNameDescriptor {
        Self.descriptor(
        "connections_closed", "total",
        "Connections the server closed: header_timeout, body_timeout, body_stalled, write_stalled, connection_limit, address_limit, idle_reclaimed.")
    }
    private static var openConnections: MetricNameDescriptor {
        Self.descriptor("connections_open", "", "Connections open now.")
    }
    private static var cacheLookups: MetricNameDescriptor {
        Self.descriptor(
            "ledger_snapshot_cache_lookups", "total",
            "Ledger reads the snapshot cache answered (hit) or, while it answers, could not (miss).")
    }
    private static var ledgerReceipts: MetricNameDescriptor {
        Self.descriptor(
        "ledger_receipts", "total", "Receipts recorded in the ledger, by whether they were new.")
    }

    /// Sets the snapshot cache's metrics from what the ledger reports (`nil`: a ledger without a cache, all 0).
    /// Called before each exposition; the lookup counters grow by what the ledger counted since the last call.
    /// A `ServiceMetrics` observes one ledger: the counts it is given only grow.
    public func observe(cache statistics: LedgerCacheStatistics?) {
        let statistics = statistics ?? LedgerCacheStatistics(isEnabled: false, entries: 0, bytes: 0, hits: 0, misses: 0)
        // Under the lock, so that two scrapes at once neither count a lookup twice (a report older than the last
        // one adds nothing) nor leave the older figures last.
        self.cacheCounted.withLockedValue { counted in
            guard statistics.hits >= counted.hits, statistics.misses >= counted.misses,
                statistics.nearMisses >= counted.nearMisses
            else { return }
            self.cacheEnabled.set(Int64(statistics.isEnabled ? 1 : 0))
            self.cacheEntries.set(Int64(clamping: statistics.entries))
            self.cacheBytes.set(Int64(clamping: statistics.bytes))
            if statistics.hits > counted.hits { self.cacheHits.increment(by: Int64(clamping: statistics.hits - counted.hits)) }
            if statistics.misses > counted.misses {
                self.cacheMisses.increment(by: Int64(clamping: statistics.misses - counted.misses))
            }
            if statistics.nearMisses > counted.nearMisses {
                self.cacheNearMisses.increment(by: Int64(clamping: statistics.nearMisses - counted.nearMisses))
            }
            counted = (statistics.hits, statistics.misses, statistics.nearMisses)
        }
    }

    /// Sets the group commit's counters from what the ledger reports (`nil`: a ledger that does not batch); as
    /// with ``observe(cache:)``, they grow by what was added since the last call.
    public func observe(writes statistics: LedgerWriteStatistics?) {
        guard let statistics else { return }
        self.writesCounted.withLockedValue { counted in
            guard statistics.transactions >= counted.transactions, statistics.writes >= counted.writes else { return }
            self.writeTransactions.increment(by: Int64(clamping: statistics.transactions - counted.transactions))
            self.batchedWrites.increment(by: Int64(clamping: statistics.writes - counted.writes))
            counted = statistics
        }
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] {
        self.registry.emitToBuffer()
    }
}
