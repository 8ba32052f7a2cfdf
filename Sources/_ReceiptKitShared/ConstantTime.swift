/// Comparisons whose time depends only on the lengths of what is compared, never on where the bytes differ: for
/// digests, device hashes, pins and secrets.
///
/// Concrete byte slices rather than generic collections: a generic function called from another module runs
/// unspecialized, and allocates.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes.
    package static func equals(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        var left = lhs.startIndex
        var right = rhs.startIndex
        while left < lhs.endIndex {
            difference |= lhs[left] ^ rhs[right]
            left += 1
            right += 1
        }
        return difference == 0
    }

    /// Whether `lhs` and `rhs` hold the same bytes.
    package static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        Self.equals(lhs[...], rhs[...])
    }
}
