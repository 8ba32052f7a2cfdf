#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A dictionary key made of exact DER bytes.
///
/// Equality compares every byte. The hash mixes the length with the last 32 bytes only: for certificates those are
/// the signature, so they spread well, and a lookup does not hash a kilobyte and a half per certificate. Colliding
/// keys (an attacker can make them) cost a byte comparison each, and the caches that use this key are bounded.
struct DERBytesKey: Hashable, Sendable {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    static func == (lhs: DERBytesKey, rhs: DERBytesKey) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                guard let l = left.baseAddress, let r = right.baseAddress else { return left.count == right.count }
                return memcmp(l, r, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(self.bytes.count)
        let tail = self.bytes.suffix(32)
        tail.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
