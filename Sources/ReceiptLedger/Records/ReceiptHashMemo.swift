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
/// Bounded by the receipt bytes it holds; the oldest entries go first.
package final class ReceiptHashMemo: Sendable {
    /// The bytes of receipts kept by default: some hundreds of receipts.
    package static let defaultBytes = 4 << 20

    private struct Entry {
        let bytes: [UInt8]
        let hash: String
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        /// Lookup keys, oldest first from `head`.
        var order: [Int] = []
        var head = 0
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())
    private let maximumBytes: Int

    /// A memo holding up to `maximumBytes` of receipts (0 keeps none: every receipt is hashed).
    package init(maximumBytes: Int = ReceiptHashMemo.defaultBytes) {
        self.maximumBytes = max(0, maximumBytes)
    }

    /// The lowercase hex SHA-256 of `bytes`.
    package func hash(of bytes: [UInt8]) -> String {
        let key = Self.key(bytes)
        if let entry = self.state.withLockedValue({ $0.entries[key] }), Self.same(entry.bytes, bytes) {
            return entry.hash
        }
        let hash = HexDigits.string(SHA256.hash(data: bytes))
        self.remember(Entry(bytes: bytes, hash: hash), key: key)
        return hash
    }

    /// Entries and bytes held (for tests).
    package var usage: (entries: Int, bytes: Int) {
        self.state.withLockedValue { ($0.entries.count, $0.bytes) }
    }

    private func remember(_ entry: Entry, key: Int) {
        guard entry.bytes.count <= self.maximumBytes else { return }
        self.state.withLockedValue { state in
            if let replaced = state.entries.updateValue(entry, forKey: key) {
                state.bytes -= replaced.bytes.count  // a collision: the newer receipt takes the key, in its place
            } else {
                state.order.append(key)
            }
            state.bytes += entry.bytes.count
            while state.bytes > self.maximumBytes, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let removed = state.entries.removeValue(forKey: oldest) { state.bytes -= removed.bytes.count }
            }
            if state.head > 64, state.head * 2 > state.order.count {
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
