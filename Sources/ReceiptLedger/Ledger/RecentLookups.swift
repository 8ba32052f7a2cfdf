/// The keys of the last ``capacity`` lookups of a cache, to tell a miss that a larger cache would likely have
/// answered (a *near miss*: the key was looked up not long ago) from one no cache size would (a key seen for the
/// first time in a long while). Keys are hash values; a collision miscounts one lookup, nothing else.
///
/// Memory is fixed by the capacity: a ring of keys and a count per distinct key in it.
struct RecentLookups {
    private var ring: [Int]
    private var next = 0
    private var filled = false
    private var counts: [Int: UInt32] = [:]

    /// How many lookups are remembered.
    var capacity: Int { self.ring.count }

    init(capacity: Int) {
        self.ring = Array(repeating: 0, count: max(1, capacity))
    }

    /// Whether `key` is among the remembered lookups; then remembers this one (forgetting the oldest when full).
    mutating func note(_ key: Int) -> Bool {
        let seen = self.counts[key] != nil
        if self.filled {
            let oldest = self.ring[self.next]
            if let count = self.counts[oldest] {
                self.counts[oldest] = count > 1 ? count - 1 : nil
            }
        }
        self.ring[self.next] = key
        self.counts[key, default: 0] += 1
        self.next += 1
        if self.next == self.ring.count {
            self.next = 0
            self.filled = true
        }
        return seen
    }

    /// Forgets every lookup.
    mutating func removeAll() {
        self.counts.removeAll()
        self.next = 0
        self.filled = false
    }
}
