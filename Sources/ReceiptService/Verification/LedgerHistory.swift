import ReceiptLedger

/// What the ledger knows around one receipt once it has been recorded: the snapshot of its original transaction
/// ids (whatever taught the ledger about them: receipts, notifications, the App Store Server API) and the newest
/// receipt that carried them.
struct LedgerHistory: Sendable {
    var snapshot: LedgerSnapshot
    var latestReceipt: [UInt8]
    /// Whether ``latestReceipt`` is the receipt posted (no newer one carried its transactions, or the ledger no longer
    /// holds the newer one's bytes).
    var latestIsPosted: Bool

    /// Records `entry` and reads its history (a receipt recorded before is recognised and read in one statement);
    /// any ledger failure is counted and rethrown (a string refused for holding U+0000 is rethrown uncounted: the
    /// database did not fail).
    static func record(_ entry: LedgerReceipt, in ledger: any Ledger, metrics: ServiceMetrics) async throws(LedgerError)
        -> LedgerHistory
    {
        let snapshot: LedgerSnapshot
        do {
            let recorded = try await ledger.recordAndSnapshot(entry)
            metrics.countLedgerWrite(recorded.summary)
            snapshot = recorded.snapshot
        } catch {
            if error.code != .stringContainsNUL { metrics.countLedgerFailure() }
            throw error
        }
        return try await Self.history(entry, snapshot: snapshot, in: ledger, metrics: metrics)
    }

    /// Reads the history of a recorded `entry` (again, after an App Store Server API refresh wrote to it); any
    /// ledger failure is counted and rethrown.
    static func read(_ entry: LedgerReceipt, in ledger: any Ledger, metrics: ServiceMetrics) async throws(LedgerError)
        -> LedgerHistory
    {
        let snapshot: LedgerSnapshot
        do {
            snapshot = try await ledger.snapshot(matching: LedgerQuery(receipt: entry))
        } catch {
            metrics.countLedgerFailure()
            throw error
        }
        return try await Self.history(entry, snapshot: snapshot, in: ledger, metrics: metrics)
    }

    /// The history `snapshot` tells of `entry`. `latest_receipt` is the newest receipt that carried these
    /// transactions (kept per original transaction id, apart from the rows signed data replaces), else the one
    /// posted: only a newer receipt than the posted one costs a read.
    private static func history(
        _ entry: LedgerReceipt, snapshot: LedgerSnapshot, in ledger: any Ledger, metrics: ServiceMetrics
    ) async throws(LedgerError) -> LedgerHistory {
        do {
            if let newest = snapshot.latestReceiptHash, newest != entry.hash,
                let stored = try await ledger.receipt(hash: newest)
            {
                return LedgerHistory(snapshot: snapshot, latestReceipt: stored, latestIsPosted: false)
            }
        } catch {
            metrics.countLedgerFailure()
            throw error
        }
        return LedgerHistory(snapshot: snapshot, latestReceipt: entry.bytes, latestIsPosted: true)
    }

    /// `latest_receipt_info`: every transaction newest first, or with `exclude-old-transactions` only the newest
    /// of each subscription — its original transaction id, which upgrades, downgrades and crossgrades within the
    /// subscription keep while the product changes (purchases without an expiry date are not subscriptions and are
    /// all kept).
    func latestReceiptInfo(excludingOld: Bool) -> [LedgerTransaction] {
        guard excludingOld else { return self.snapshot.transactions }
        var seenSubscriptions = Set<String>()
        return self.snapshot.transactions.filter { transaction in
            transaction.expiresDateMilliseconds == nil
                || seenSubscriptions.insert(transaction.originalTransactionIdentifier).inserted
        }
    }
}
