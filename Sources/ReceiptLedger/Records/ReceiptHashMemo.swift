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
    }

    private struct State {
        var entries: CostBoundedTable<Int, Entry>
        var hits = 0
    }

    private let state: NIOLockedValueBox<State>

    /// A memo taking up to `maximumBytes` (0 keeps nothing: every receipt is hashed).
    package init(maximumBytes: Int = ReceiptHashMemo.defaultBytes) {
        self.state = NIOLockedValueBox(State(entries: CostBoundedTable(limit: maximumBytes)))
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
        // A collision of the lookup key: the newer receipt takes the key.
        self.state.withLockedValue { state in
            state.entries.insert(Entry(bytes: bytes, hash: hash), cost: bytes.count + Self.entryOverhead, for: key)
        }
        return hash
    }

    /// Entries held, the memory they are counted for, and the lookups answered from the memo (for tests).
    package var usage: (entries: Int, bytes: Int, hits: Int) {
        self.state.withLockedValue { ($0.entries.count, $0.entries.cost, $0.hits) }
    }

    /// Positions in the eviction queue, stale ones included (for tests).
    var queueLength: Int {
        self.state.withLockedValue { $0.entries.queueLength }
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
