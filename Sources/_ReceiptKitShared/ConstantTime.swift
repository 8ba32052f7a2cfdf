/// Comparisons whose time depends only on the lengths of what is compared, never on where the bytes differ: for
/// digests, device hashes, pins and secrets.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes.
    package static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(lhs, rhs) {
            difference |= a ^ b
        }
        return difference == 0
    }
}
