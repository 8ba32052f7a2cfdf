import _ReceiptKitShared
import NIOConcurrencyHelpers

/// Snapshots read before, kept in memory and dropped as soon as anything is written about one of their original
/// transaction ids or transactions — by this process at once, by another PostgreSQL client when its change
/// notification arrives.
///
/// A write notes the original transaction ids and the transaction ids it wrote. A read takes a ticket (the number of
/// writes seen so far) before it starts, and its snapshot is kept only when no write touched the query's ids or its
/// transactions' ids after the ticket: a snapshot read while a write committed is never kept, so an
/// answer never comes from before a write this process finished (a refund, a renewal). Writes are noted after
/// they commit or fail (a failed commit may still have landed).
///
/// Bounded: at most ``maximumBytes`` of snapshots (their estimated size), and at most ``maximumTrackedIdentifiers``
/// ids written since the last flush; past either, older snapshots or all of them are dropped. On PostgreSQL it keeps
/// and answers nothing until the schema announces changes and the change listener hears them, nor whenever the
/// listener stops.
final class LedgerSnapshotCache: Sendable {
    private struct Entry {
        let snapshot: LedgerSnapshot
        let ticket: UInt64
        /// The ids a write of which drops it: the query's original transaction ids and its transactions' own ids
        /// (a transaction moved to another original transaction id by a write names only its old and new ids).
        let ids: [String]
    }

    private struct State {
        /// Told of every write: SQLite from the start; PostgreSQL while its change listener runs.
        var hearsWrites: Bool
        /// The schema announces changes (PostgreSQL's triggers, once migrated): SQLite from the start.
        var schemaAnnounces: Bool
        var isEnabled: Bool { self.hearsWrites && self.schemaAnnounces }
        /// Costed at their estimated bytes; the oldest go first.
        var entries: CostBoundedTable<LedgerQuery, Entry>
        /// The count of writes noted so far: the next ticket.
        var writes: UInt64 = 0
        /// Per original transaction id, the count of writes when it was last written (since ``floor``).
        var lastWritten: [String: UInt64] = [:]
        /// Reads whose ticket is older were running when the cache was flushed: never kept.
        var floor: UInt64 = 0
        /// Lookups answered, and lookups while enabled that were not.
        var hits: UInt64 = 0
        var misses: UInt64 = 0
        /// Misses of a query looked up within the last ``recent``'s capacity of lookups, nothing kept for it.
        var nearMisses: UInt64 = 0
        var recent: RecentLookups
    }

    /// The default of ``maximumBytes``: 16 MiB.
    static let defaultBytes = 16 << 20

    /// How many lookups a near miss looks back over: four times the snapshots of two purchases (2,560 bytes
    /// counted each) ``maximumBytes`` holds — a near miss is one a cache up to four times larger would likely have
    /// answered — at least 4,096 and at most 262,144 (a few MiB; for caches over 160 MiB, less than four times).
    static func nearMissWindow(maximumBytes: Int) -> Int {
        min(262_144, max(4_096, 4 * (maximumBytes / 2_560)))
    }

    /// The most bytes of snapshots kept; 0 keeps none.
    let maximumBytes: Int
    /// The most original transaction ids remembered as written; past it, the cache is flushed.
    let maximumTrackedIdentifiers: Int
    private let state: NIOLockedValueBox<State>

    init(maximumBytes: Int = LedgerSnapshotCache.defaultBytes, maximumTrackedIdentifiers: Int = 65_536, enabled: Bool) {
        self.maximumBytes = max(0, maximumBytes)
        self.maximumTrackedIdentifiers = max(1, maximumTrackedIdentifiers)
        let kept = enabled && maximumBytes > 0
        self.state = NIOLockedValueBox(
            State(
                hearsWrites: kept, schemaAnnounces: kept, entries: CostBoundedTable(limit: self.maximumBytes),
                // Sized whenever snapshots may be kept: PostgreSQL's cache starts disabled and is enabled later.
                recent: RecentLookups(
                    capacity: self.maximumBytes > 0 ? Self.nearMissWindow(maximumBytes: self.maximumBytes) : 1)))
    }

    /// The snapshot kept for `query`, if no write touched its ids since it was read.
    func snapshot(for query: LedgerQuery) -> LedgerSnapshot? {
        self.state.withLockedValue { state in
            guard state.isEnabled else { return nil }
            let lookedUpLately = state.recent.note(query.hashValue)
            guard let entry = state.entries[query] else {
                state.misses &+= 1
                if lookedUpLately { state.nearMisses &+= 1 }
                return nil
            }
            for id in entry.ids where (state.lastWritten[id] ?? 0) > entry.ticket {
                state.entries.remove(query)
                state.misses &+= 1
                return nil
            }
            state.hits &+= 1
            return entry.snapshot
        }
    }

    /// A ticket for a read about to start; `nil` when disabled (the read is not kept).
    func ticket() -> UInt64? {
        self.state.withLockedValue { $0.isEnabled ? $0.writes : nil }
    }

    /// Keeps `snapshot`, read for `query` with `ticket`, unless a write touched its ids since, or it does not fit.
    func keep(_ snapshot: LedgerSnapshot, for query: LedgerQuery, ticket: UInt64) {
        let bytes = Self.estimatedBytes(snapshot, query: query)
        let ids = query.originalTransactionIdentifiers + snapshot.transactions.map(\.transactionIdentifier)
        self.state.withLockedValue { state in
            guard state.isEnabled, ticket >= state.floor else { return }
            for id in ids where (state.lastWritten[id] ?? 0) > ticket { return }
            state.entries.insert(Entry(snapshot: snapshot, ticket: ticket, ids: ids), cost: bytes, for: query)
        }
    }

    /// Notes a write about `ids` (committed, failed or unknown): snapshots holding them are no longer answered, and
    /// reads running now are not kept.
    func written<IDs: Sequence<String>>(_ ids: IDs) {
        self.state.withLockedValue { state in
            state.writes &+= 1
            for id in ids { state.lastWritten[id] = state.writes }
            if state.lastWritten.count > self.maximumTrackedIdentifiers { Self.flush(&state) }
        }
    }

    /// Drops everything, and keeps no read running now: a write whose ids are unknown (a migration, a change
    /// notification too long to name its id).
    func flush() {
        self.state.withLockedValue { state in Self.flush(&state) }
    }

    /// Whether another client's writes are heard now (PostgreSQL's change listener runs); both flush: while
    /// not heard, writes went unseen.
    func setHearsWrites(_ hears: Bool) {
        self.state.withLockedValue { state in
            Self.flush(&state)
            state.hearsWrites = hears && self.maximumBytes > 0
        }
    }

    /// The schema announces every change from now on (PostgreSQL, migrated to
    /// ``LedgerMigration/changeNotificationsVersion``); flushes.
    func schemaAnnouncesChanges() {
        self.state.withLockedValue { state in
            Self.flush(&state)
            state.schemaAnnounces = self.maximumBytes > 0
        }
    }

    /// Whether another client's writes are heard (always where every write goes through this process).
    var hearsWrites: Bool {
        self.state.withLockedValue { $0.hearsWrites }
    }

    /// Whether snapshots are kept and answered.
    var isEnabled: Bool {
        self.state.withLockedValue { $0.isEnabled }
    }

    /// The queries the eviction order holds, kept or not (bounded by the compaction).
    var orderLength: Int {
        self.state.withLockedValue { $0.entries.queueLength }
    }

    /// Whether it answers, what it holds, and its lookups so far.
    var statistics: LedgerCacheStatistics {
        self.state.withLockedValue { state in
            LedgerCacheStatistics(
                isEnabled: state.isEnabled, entries: state.entries.count, bytes: state.entries.cost,
                hits: state.hits, misses: state.misses, nearMisses: state.nearMisses)
        }
    }

    private static func flush(_ state: inout State) {
        state.writes &+= 1
        state.floor = state.writes
        state.entries.removeAll()
        state.lastWritten = [:]
        // A miss after a flush is no sign of a cache too small.
        state.recent.removeAll()
    }

    /// The memory a snapshot holds, roughly: its strings and JSON, and a fixed cost per row.
    static func estimatedBytes(_ snapshot: LedgerSnapshot, query: LedgerQuery) -> Int {
        var bytes = 256 + query.bundleIdentifier.utf8.count
        for id in query.originalTransactionIdentifiers { bytes += 64 + id.utf8.count }
        for transaction in snapshot.transactions {
            bytes += 192 + transaction.json.count + transaction.transactionIdentifier.utf8.count
                + transaction.originalTransactionIdentifier.utf8.count + transaction.productIdentifier.utf8.count
                + transaction.receiptHash.utf8.count + transaction.bundleIdentifier.utf8.count
        }
        for info in snapshot.renewalInfo {
            bytes += 128 + info.json.count + info.productIdentifier.utf8.count
                + info.originalTransactionIdentifier.utf8.count + info.bundleIdentifier.utf8.count
                + (info.signedJWS?.utf8.count ?? 0)
        }
        for record in snapshot.originalTransactions {
            bytes += 128 + record.originalTransactionIdentifier.utf8.count + (record.latestReceiptHash?.utf8.count ?? 0)
                + record.bundleIdentifier.utf8.count
        }
        return bytes
    }
}
