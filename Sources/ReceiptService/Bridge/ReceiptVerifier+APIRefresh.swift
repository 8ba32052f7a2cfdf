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
    /// data is due, waiting at most the refresh wait — what the App Store Server API mirror does before it answers.
    /// - Returns: Whether a refresh wrote to the ledger in time (the caller reads it again).
    func refreshIfDue(_ query: LedgerQuery, now: Date) async -> Bool {
        guard let refresher = self.refresher,
            refresher.refreshes(bundleIdentifier: query.bundleIdentifier, environment: query.environment),
            !query.originalTransactionIdentifiers.isEmpty
        else { return false }
        // A ledger that cannot say when the ids were refreshed cannot answer either: the caller's read says so.
        guard let snapshot = try? await self.ledger.snapshot(matching: query) else { return false }
        let due = self.dueForRefresh(
            query.originalTransactionIdentifiers, environment: query.environment,
            bundleIdentifier: query.bundleIdentifier, snapshot: snapshot, now: now)
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

    /// Those of `identifiers` whose App Store Server API data is due; the others are counted `fresh`.
    func dueForRefresh(
        _ identifiers: [String], environment: AppStoreEnvironment, bundleIdentifier: String, snapshot: LedgerSnapshot,
        now: Date
    ) -> [RefreshKey] {
        let interval = DurationConversion.milliseconds(self.configuration.appStoreServerAPI.refreshInterval)
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
