/// Byte comparison for the generated validator, in two real variants: `«diff»(a, b) -> UInt64` is 0 exactly when
/// `a` and `b` are equal, and its time depends only on their lengths.
enum CompareTemplates {
    /// XOR of corresponding bytes, OR-accumulated; the length difference folded in.
    static let xorFold = #"""
        private func «diff»(_ a: [UInt8], _ b: [UInt8]) -> UInt64 {
            var d = UInt64(truncatingIfNeeded: a.count ^ b.count)
            let n = min(a.count, b.count)
            var i = 0
            while i < n {
                d |= UInt64(a[i] ^ b[i])
                i += 1
            }
            return d
        }
        """#

    /// Signed differences squared and summed in wide arithmetic; a length mismatch is never zero.
    static let squareSum = #"""
        private func «diff»(_ a: [UInt8], _ b: [UInt8]) -> UInt64 {
            var total: UInt64 = a.count == b.count ? 0 : 1
            for (x, y) in zip(a, b) {
                let delta = Int64(x) - Int64(y)
                total = total &+ UInt64(delta * delta)
            }
            return total
        }
        """#
}
