/// The Punycode encoding of RFC 3492, which IDNA uses to spell a Unicode label in ASCII (`bücher` → `bcher-kva`).
///
/// The input is bounded by the caller (a label of a host name that is at most 253 characters long), so every
/// intermediate value fits an `Int` with room to spare; the arithmetic still reports overflow instead of trapping.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// The Punycode form of `scalars` (without the `xn--` prefix), or `nil` when the arithmetic would overflow.
    static func encode(_ scalars: [Unicode.Scalar]) -> String? {
        let codes = scalars.map { Int($0.value) }
        var output: [UInt8] = codes.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        var n = Self.initialN
        var delta = 0
        var bias = Self.initialBias
        var handled = basicCount
        while handled < codes.count {
            // RFC 3492 §6.3: the smallest code point not yet handled.
            guard let m = codes.filter({ $0 >= n }).min() else { return nil }
            let (increment, overflowA) = (m - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, overflowB) = delta.addingReportingOverflow(increment)
            guard !overflowA, !overflowB else { return nil }
            delta = sum
            n = m
            for code in codes {
                if code < n {
                    let (next, overflow) = delta.addingReportingOverflow(1)
                    guard !overflow else { return nil }
                    delta = next
                }
                guard code == n else { continue }
                var q = delta
                var k = Self.base
                while true {
                    let t = k <= bias ? Self.tMin : (k >= bias + Self.tMax ? Self.tMax : k - bias)
                    if q < t { break }
                    output.append(Self.digit(t + (q - t) % (Self.base - t)))
                    q = (q - t) / (Self.base - t)
                    k += Self.base
                }
                output.append(Self.digit(q))
                bias = Self.adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    /// RFC 3492 §6.1.
    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / Self.damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((Self.base - Self.tMin) * Self.tMax) / 2 {
            delta /= Self.base - Self.tMin
            k += Self.base
        }
        return k + ((Self.base - Self.tMin + 1) * delta) / (delta + Self.skew)
    }
}
