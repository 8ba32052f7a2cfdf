import _ReceiptKitShared

/// A scenario's randomness: SplitMix64 (whose whole sequence follows from its seed, so that a scenario played with the
/// same seed drops, duplicates and shuffles the same notifications and names them with the same UUIDs), with the
/// draws a scenario makes. Not for secrets.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    package init(seed: UInt64) { self.generator = SplitMix64(state: seed) }

    package mutating func next() -> UInt64 { self.generator.next() }

    /// A version 4 UUID, lowercase, from the next 128 bits.
    package mutating func uuid() -> String {
        let high = self.next(), low = self.next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = HexDigits.string(bytes)
        func part(_ range: Range<Int>) -> Substring {
            hex.dropFirst(2 * range.lowerBound).prefix(2 * range.count)
        }
        return [part(0..<4), part(4..<6), part(6..<8), part(8..<10), part(10..<16)].joined(separator: "-")
    }

    /// `true` with probability `rate` (0 never, 1 always).
    mutating func chance(_ rate: Double) -> Bool {
        guard rate > 0 else { return false }
        guard rate < 1 else { return true }
        return Double(self.next() >> 11) / Double(1 << 53) < rate
    }
}
