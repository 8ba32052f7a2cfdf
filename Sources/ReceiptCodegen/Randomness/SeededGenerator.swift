import Crypto

/// A deterministic random number generator (xoshiro256**) keyed by a generation's seed: the same seed gives the
/// same sequence, hence the same generated source, on every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator keyed by SHA-256 of `seed` and `purpose` (so that independent streams never overlap).
    init(seed: [UInt8], purpose: String) {
        let digest = Array(SHA256.hash(data: seed + [0] + Array(purpose.utf8)))
        func word(_ at: Int) -> UInt64 {
            digest[at..<(at + 8)].reduce(0) { ($0 << 8) | UInt64($1) }
        }
        self.state = (word(0), word(8), word(16), word(24))
        if self.state == (0, 0, 0, 0) { self.state.0 = 1 }
    }

    mutating func next() -> UInt64 {
        let result = rotate(self.state.1 &* 5, 7) &* 9
        let t = self.state.1 << 17
        self.state.2 ^= self.state.0
        self.state.3 ^= self.state.1
        self.state.1 ^= self.state.2
        self.state.0 ^= self.state.3
        self.state.2 ^= t
        self.state.3 = rotate(self.state.3, 45)
        return result
    }

    /// A number in `0..<bound` (`bound` > 0), by a method of our own (Lemire's multiply-shift without rejection's
    /// variance, 64 bits) so that generations never depend on the standard library's choice of algorithm.
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let (high, _) = self.next().multipliedFullWidth(by: UInt64(bound))
        return Int(high)
    }

    /// A number in `range`.
    mutating func pick(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + self.below(range.count)
    }

    /// One of `choices` (not empty).
    mutating func element<T>(_ choices: [T]) -> T {
        choices[self.below(choices.count)]
    }

    /// `values` in a random order (Fisher–Yates).
    mutating func shuffled<T>(_ values: [T]) -> [T] {
        var out = values
        var i = out.count - 1
        while i > 0 {
            out.swapAt(i, self.below(i + 1))
            i -= 1
        }
        return out
    }

    /// A random byte.
    mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: self.next() >> 56)
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
