/// The package's one bounded cache: a table whose entries each have a cost (their memory, roughly, or 1 to bound
/// their number), bounded by the total: inserting past the limit drops the oldest entries first. An entry replaced
/// under its key counts as new. Not thread-safe: its owners keep it behind their lock (the ledger's snapshot cache
/// and hash memo, the known receipts). Its hot path is `@inlinable`, so each owner's module specialises it as it did
/// when the table lived in the ledger. The trust cache (AppStorePKI) keeps its own dictionaries: it measured slower
/// on the table before the table was inlinable (Benchmarks/README.md), and moving it back waits for a new measurement.
package struct CostBoundedTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline let value: Value
        @usableFromInline let cost: Int
        /// When it was inserted: a queue position of an earlier insertion under the same key is stale.
        @usableFromInline let generation: Int

        @usableFromInline init(value: Value, cost: Int, generation: Int) {
            (self.value, self.cost, self.generation) = (value, cost, generation)
        }
    }

    @usableFromInline var slots: [Key: Slot] = [:]
    /// Keys and the generations they were inserted with, oldest first from `head`.
    @usableFromInline var order: [(key: Key, generation: Int)] = []
    @usableFromInline var head = 0
    @usableFromInline var generation = 0
    /// The total cost of the entries held.
    @usableFromInline package internal(set) var cost = 0
    /// The most the entries may cost together; an entry costing more is not kept.
    package let limit: Int

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    @inlinable package subscript(key: Key) -> Value? {
        self.slots[key]?.value
    }

    @inlinable package var count: Int { self.slots.count }

    /// Queue positions, stale ones included (for tests: it stays within a small multiple of ``count``).
    package var queueLength: Int { self.order.count - self.head }

    /// Holds `value` under `key` (in place of what was there), then drops the oldest entries until the rest fit.
    @inlinable package mutating func insert(_ value: Value, cost: Int, for key: Key) {
        guard cost <= self.limit else {
            self.remove(key)
            return
        }
        self.generation += 1
        if let replaced = self.slots.updateValue(Slot(value: value, cost: cost, generation: self.generation), forKey: key) {
            self.cost -= replaced.cost
        }
        self.order.append((key, self.generation))
        self.cost += cost
        while self.cost > self.limit, self.head < self.order.count {
            let oldest = self.order[self.head]
            self.head += 1
            if let slot = self.slots[oldest.key], slot.generation == oldest.generation {
                self.slots[oldest.key] = nil
                self.cost -= slot.cost
            }
        }
        self.compact()
    }

    @inlinable package mutating func remove(_ key: Key) {
        if let removed = self.slots.removeValue(forKey: key) { self.cost -= removed.cost }
    }

    package mutating func removeAll() {
        self.slots = [:]
        self.order = []
        self.head = 0
        self.cost = 0
    }

    /// Drops stale queue positions (entries replaced or removed) once they outnumber the live ones.
    @usableFromInline mutating func compact() {
        if self.order.count - self.head > 2 * self.slots.count + 64 {
            let slots = self.slots
            self.order = self.order[self.head...].filter { slots[$0.key]?.generation == $0.generation }
            self.head = 0
        } else if self.head > 64, self.head * 2 > self.order.count {
            self.order.removeFirst(self.head)
            self.head = 0
        }
    }
}
