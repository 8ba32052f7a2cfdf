#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A dictionary key made of exact DER bytes.
///
/// Equality compares every byte; the hash covers every byte too, through the standard library's per-process
/// seeded hasher, so an attacker can neither pick colliding certificates nor predict which ones collide. The hash is
/// computed once, when the key is made — outside the cache's lock, so concurrent validations do not serialise on
/// hashing kilobytes of DER.
struct DERBytesKey: Hashable, Sendable {
    let bytes: ArraySlice<UInt8>
    private let digest: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        self.digest = hasher.finalize()
    }

    static func == (lhs: DERBytesKey, rhs: DERBytesKey) -> Bool {
        guard lhs.digest == rhs.digest, lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                guard let l = left.baseAddress, let r = right.baseAddress else { return left.count == right.count }
                return memcmp(l, r, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(self.digest)
    }
}
