import Crypto
import NIOConcurrencyHelpers
import _ReceiptKitShared

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The ledger keys (SHA-256, lowercase hex) of receipts hashed recently, so that a receipt posted again — apps send
/// the same receipt until it changes — is compared, not hashed: an entry is found by the receipt's length and last
/// bytes (the end of its signature) and used only when every byte matches, which costs a fraction of hashing them.
/// Anything else (a different receipt, a collision of the lookup key) is hashed as before.
///
/// Bounded by the memory its entries take (a receipt's bytes and ``entryOverhead`` each); the oldest entries go
/// first.
package final class ReceiptHashMemo: Sendable {
    /// The memory kept by default: some hundreds of receipts.
    package static let defaultBytes = 4 << 20
    /// What an entry costs besides the receipt's bytes: its hash, the table's and the queue's slots.
    package static let entryOverhead = 256

    private struct Entry {
        let bytes: [UInt8]
        let hash: String
        /// When it was remembered: a queue position of an entry since replaced (a lookup-key collision) is stale.
        let generation: Int
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        /// Lookup keys and their entries' generations, oldest first from `head`.
        var order: [(key: Int, generation: Int)] = []
        var head = 0
        var bytes = 0
        var generation = 0
        var hits = 0
    }

    private let state = NIOLockedValueBox(State())
    private let maximumBytes: Int

    /// A memo taking up to `maximumBytes` (0 keeps nothing: every receipt is hashed).
    package init(maximumBytes: Int = ReceiptHashMemo.defaultBytes) {
        self.maximumBytes = max(0, maximumBytes)
    }

    /// The lowercase hex SHA-256 of `bytes`.
    package func hash(of bytes: [UInt8]) -> String {
        let key = Self.key(bytes)
        // One lock for the lookup, the comparison (a memcmp) and the count.
        let remembered: String? = self.state.withLockedValue { state in
            guard let entry = state.entries[key], Self.same(entry.bytes, bytes) else { return nil }
            state.hits += 1
            return entry.hash
        }
        if let remembered { return remembered }
        let hash = HexDigits.string(SHA256.hash(data: bytes))
        self.remember(bytes, hash: hash, key: key)
        return hash
    }

    /// Entries held, the memory they are counted for, and the lookups answered from the memo (for tests).
    package var usage: (entries: Int, bytes: Int, hits: Int) {
        self.state.withLockedValue { ($0.entries.count, $0.bytes, $0.hits) }
    }

    /// Positions in the eviction queue, stale ones included (for tests).
    var queueLength: Int {
        self.state.withLockedValue { $0.order.count - $0.head }
    }

    private func remember(_ bytes: [UInt8], hash: String, key: Int) {
        let cost = bytes.count + Self.entryOverhead
        guard cost <= self.maximumBytes else { return }
        self.state.withLockedValue { state in
            state.generation += 1
            let entry = Entry(bytes: bytes, hash: hash, generation: state.generation)
            if let replaced = state.entries.updateValue(entry, forKey: key) {
                state.bytes -= replaced.bytes.count + Self.entryOverhead
            }
            state.order.append((key, state.generation))
            state.bytes += cost
            while state.bytes > self.maximumBytes, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let current = state.entries[oldest.key], current.generation == oldest.generation {
                    state.entries[oldest.key] = nil
                    state.bytes -= current.bytes.count + Self.entryOverhead
                }
            }
            // The queue keeps stale positions (replaced entries) until they come up: dropped once they outnumber
            // the live ones, so that it stays within a small multiple of the entries.
            if state.order.count - state.head > 2 * state.entries.count + 64 {
                let entries = state.entries
                state.order = state.order[state.head...].filter { entries[$0.key]?.generation == $0.generation }
                state.head = 0
            } else if state.head > 64, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// The length and the last 32 bytes, through the process's seeded hasher.
    private static func key(_ bytes: [UInt8]) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(32))) }
        return hasher.finalize()
    }

    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                guard let first = a.baseAddress, let second = b.baseAddress else { return true }  // both empty
                return memcmp(first, second, a.count) == 0
            }
        }
    }
}
