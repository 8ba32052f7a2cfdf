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

    /// The receipt's original transaction ids whose App Store Server API data is due; the others are counted
    /// `fresh`.
    func dueForRefresh(_ entry: LedgerReceipt, snapshot: LedgerSnapshot, now: Date) -> [RefreshKey] {
        let interval = DurationConversion.milliseconds(self.configuration.appStoreServerAPI.refreshInterval)
        let nowMilliseconds = now.epochMilliseconds
        var due: [RefreshKey] = []
        var seen = Set<String>()
        for id in entry.originalTransactionIdentifiers where seen.insert(id).inserted {
            if let refreshed = snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: id),
                AppStoreServerAPIBridge.elapsed(from: refreshed, to: nowMilliseconds) < interval
            {
                self.metrics.countAPIRefresh(.fresh)
                continue
            }
            due.append(
                RefreshKey(
                    environment: entry.environment,
                    bundleIdentifier: entry.bundleIdentifier,
                    originalTransactionIdentifier: id
                )
            )
        }
        return due
    }

    /// How long a request waits for its refreshes: the configured wait, at most half the request timeout (the
    /// rest is for validation, the ledger and the answer).
    var refreshWait: Duration {
        min(self.configuration.appStoreServerAPI.refreshWait, self.configuration.requestTimeout / 2)
    }
}
