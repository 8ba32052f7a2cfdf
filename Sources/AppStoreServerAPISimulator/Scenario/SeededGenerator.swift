/// SplitMix64: a small, fast generator whose whole sequence follows from its seed, so that a scenario played with
/// the same seed drops, duplicates and shuffles the same notifications and names them with the same UUIDs.
/// Not for secrets.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { self.state = seed }

    package mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A version 4 UUID, lowercase, from the next 128 bits.
    package mutating func uuid() -> String {
        let high = self.next(), low = self.next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }

    /// `true` with probability `rate` (0 never, 1 always).
    mutating func chance(_ rate: Double) -> Bool {
        guard rate > 0 else { return false }
        guard rate < 1 else { return true }
        return Double(self.next() >> 11) / Double(1 << 53) < rate
    }
}
