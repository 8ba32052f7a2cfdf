import AppStorePKI
import struct Foundation.Date
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

extension ReceiptVerifier {
    /// Records `entry` and reads its history; for an app the App Store Server API refreshes, first refreshes the
    /// original transaction ids whose data is due (never refreshed, or longer ago than the refresh interval) and
    /// reads the history again when a refresh wrote to the ledger in time.
    func history(recording entry: LedgerReceipt, now: Date) async throws(LedgerError) -> LedgerHistory {
        let history = try await LedgerHistory.record(entry, in: self.ledger, metrics: self.metrics)
        guard let refresher = self.refresher,
            refresher.refreshes(bundleIdentifier: entry.bundleIdentifier, environment: entry.environment)
        else { return history }
        let due = self.dueForRefresh(entry, snapshot: history.snapshot, now: now)
        guard !due.isEmpty, await refresher.refresh(due, wait: self.refreshWait) else { return history }
        return try await LedgerHistory.read(entry, in: self.ledger, metrics: self.metrics)
    }

    /// For an app the App Store Server API refreshes, refreshes those of `query`'s original transaction ids whose
    /// data is due — all of them when `stale` (the caller holds something only Apple can sign anew: a transaction
    /// whose newest version a receipt gave, so the ledger has no JWS of it) — waiting at most the refresh wait: what
    /// the App Store Server API mirror and the entitlements endpoint do before they answer. Backoffs, pauses and the
    /// single flight apply as for `/verifyReceipt`.
    /// - Returns: Whether a refresh wrote to the ledger in time (the caller reads it again).
    func refreshIfDue(_ query: LedgerQuery, now: Date, stale: Bool = false) async -> Bool {
        guard let refresher = self.refresher,
            refresher.refreshes(bundleIdentifier: query.bundleIdentifier, environment: query.environment),
            !query.originalTransactionIdentifiers.isEmpty
        else { return false }
        // A ledger that cannot say when the ids were refreshed cannot answer either: the caller's read says so.
        guard let snapshot = try? await self.ledger.snapshot(matching: query) else { return false }
        // Stale data is due sooner, but not on every request: Apple's answer may not make it current (a receipt
        // created after Apple signed), and each request would ask again.
        let interval = DurationConversion.milliseconds(
            stale ? min(self.configuration.appStoreServerAPI.refreshInterval, Self.staleRefreshInterval)
                : self.configuration.appStoreServerAPI.refreshInterval)
        let due = self.dueForRefresh(
            query.originalTransactionIdentifiers, environment: query.environment,
            bundleIdentifier: query.bundleIdentifier, snapshot: snapshot, now: now, interval: interval)
        guard !due.isEmpty else { return false }
        return await refresher.refresh(due, wait: self.refreshWait)
    }

    /// The receipt's original transaction ids whose App Store Server API data is due; the others are counted
    /// `fresh`.
    func dueForRefresh(_ entry: LedgerReceipt, snapshot: LedgerSnapshot, now: Date) -> [RefreshKey] {
        self.dueForRefresh(
            entry.originalTransactionIdentifiers, environment: entry.environment,
            bundleIdentifier: entry.bundleIdentifier, snapshot: snapshot, now: now)
    }

    /// How old stale data (``refreshIfDue(_:now:stale:)``) may be before a request refreshes it.
    static let staleRefreshInterval: Duration = .seconds(60)

    /// Those of `identifiers` whose App Store Server API data is older than `interval` milliseconds (the refresh
    /// interval by default); the others are counted `fresh`.
    func dueForRefresh(
        _ identifiers: [String], environment: AppStoreEnvironment, bundleIdentifier: String, snapshot: LedgerSnapshot,
        now: Date, interval: Int64? = nil
    ) -> [RefreshKey] {
        let interval = interval ?? DurationConversion.milliseconds(self.configuration.appStoreServerAPI.refreshInterval)
        let nowMilliseconds = now.epochMilliseconds
        var due: [RefreshKey] = []
        var seen = Set<String>()
        for id in identifiers where seen.insert(id).inserted {
            if let refreshed = snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: id),
                AppStoreServerAPIBridge.elapsed(from: refreshed, to: nowMilliseconds) < interval
            {
                self.metrics.countAPIRefresh(.fresh)
                continue
            }
            due.append(
                RefreshKey(environment: environment, bundleIdentifier: bundleIdentifier, originalTransactionIdentifier: id))
        }
        return due
    }

    /// How long a request waits for its refreshes: the configured wait, at most half the request timeout (the
    /// rest is for validation, the ledger and the answer).
    var refreshWait: Duration {
        min(self.configuration.appStoreServerAPI.refreshWait, self.configuration.requestTimeout / 2)
    }
}
