/// How a ledger's snapshot cache stands: whether it answers now, what it holds, and how its lookups went since the
/// ledger was opened. The service exports it at `GET /metrics`.
///
/// On PostgreSQL the cache answers only while the change listener hears other instances' writes (and the schema
/// announces them): ``isEnabled`` is `false` while the listener reconnects, and every read then goes to the database.
public struct LedgerCacheStatistics: Sendable, Equatable {
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

    public init(isEnabled: Bool, entries: Int, bytes: Int, hits: UInt64, misses: UInt64) {
        self.isEnabled = isEnabled
        self.entries = entries
        self.bytes = bytes
        self.hits = hits
        self.misses = misses
    }
}
