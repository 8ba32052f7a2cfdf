/// SplitMix64: a small, fast generator whose whole sequence follows from its state, so that a run with the same seed
/// is the same run — a failing generated test input reproduced, a simulated scenario's drops, duplicates and UUIDs
/// repeated. Not for secrets.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64

    package init(state: UInt64) {
        self.state = state
    }

    package mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
