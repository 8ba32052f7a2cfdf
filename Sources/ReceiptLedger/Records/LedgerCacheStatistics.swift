/// How a ledger's snapshot cache stands: whether it answers now, what it holds, and how its lookups went since the
/// ledger was opened. The service exports it at `GET /metrics`.
///
/// ``isEnabled`` is `false` when the cache is turned off (`snapshotCacheBytes: 0`), and on PostgreSQL whenever it
/// cannot know of other instances' writes: while the change listener reconnects, before the schema announces
/// changes (version 4), or with a pool too small to give the listener a connection. Every read then goes to the
/// database.
public struct LedgerCacheStatistics: Sendable, Hashable {
    /// Whether snapshots are kept and answered now.
    public var isEnabled: Bool
    /// The snapshots kept now.
    public var entries: Int
    /// Their estimated size in bytes (the figure the cache's byte bound counts).
    public var bytes: Int
    /// Reads answered from the cache.
    public var hits: UInt64
    /// Reads made while the cache was enabled that it could not answer (nothing kept, or what was kept had been
    /// written since); reads while it is disabled are not counted.
    public var misses: UInt64
    /// Misses, among ``misses``, of a snapshot looked up not long before (within four times the lookups the cache
    /// holds snapshots for) and no longer kept: a cache up to four times larger would likely have answered them. Few
    /// near misses: a larger cache would not help (customers come back less often than it can remember); many: raise
    /// its size (`ledger_snapshot_cache_bytes`).
    public var nearMisses: UInt64

    /// Creates statistics.
    public init(isEnabled: Bool, entries: Int, bytes: Int, hits: UInt64, misses: UInt64, nearMisses: UInt64 = 0) {
        self.isEnabled = isEnabled
        self.entries = entries
        self.bytes = bytes
        self.hits = hits
        self.misses = misses
        self.nearMisses = nearMisses
    }
}
