/// The sensitive byte strings of one entry point, written so that none of them — nor any 6-byte piece — is in the
/// generated source or the compiled binary: each is split into chunks of 2 to 5 bytes, each chunk encoded with its own
/// codec and key, and recombined at run time by loops whose keys mix in `z`, a value that is 0 for every real input
/// but that the optimizer cannot know (so it cannot fold the decoding back into plaintext).
///
/// The generated function is `«name»(z: Int) -> [[UInt8]]`; constant `i` is at the index ``index(of:)`` gives.
struct MaskedConstants {
    private var values: [(name: String, bytes: [UInt8])] = []
    /// `order[slot]` is the position in `values` of the constant decoded into `slot`.
    private var order: [Int] = []

    /// Registers a constant (once per name), in the next slot until ``shuffle(using:)``.
    mutating func add(_ name: String, _ bytes: [UInt8]) {
        guard !self.values.contains(where: { $0.name == name }) else { return }
        self.order.append(self.values.count)
        self.values.append((name, bytes))
    }

    /// Puts the constants in random slots.
    mutating func shuffle(using random: inout SeededGenerator) {
        self.order = random.shuffled(self.order)
    }

    /// The slot of `name` in the decoded table.
    func index(of name: String) -> Int? {
        guard let position = self.values.firstIndex(where: { $0.name == name }) else { return nil }
        return self.order.firstIndex(of: position)
    }

    /// The Swift source of the decoding function, with the dialect's codecs.
    func render(name: String, dialect: Dialect, using random: inout SeededGenerator) -> String {
        let z = "z"
        var body: [String] = []
        body.append("var out = [[UInt8]](repeating: [], count: \(self.values.count))")
        for (slot, position) in self.order.enumerated() {
            let bytes = self.values[position].bytes
            body.append("do {")
            body.append("    var v = [UInt8]()")
            var start = 0
            while start < bytes.count {
                let length = min(bytes.count - start, random.pick(2...5))
                let chunk = Array(bytes[start..<(start + length)])
                body.append("    do {")
                body.append(contentsOf: Self.chunk(chunk, z: z, dialect: dialect, using: &random).map { "        " + $0 })
                body.append("    }")
                start += length
            }
            body.append("    out[\(slot)] = v")
            body.append("}")
        }
        body.append("return out")
        return "private func \(name)(_ \(z): Int) -> [[UInt8]] {\n" + body.map { "    " + $0 }.joined(separator: "\n") + "\n}"
    }

    /// One chunk: an encoded literal and the loop that decodes it into `v`.
    private static func chunk(_ plain: [UInt8], z: String, dialect: Dialect, using random: inout SeededGenerator) -> [String] {
        let key = random.byte()
        // `z & 0xFF` is in 0...255 for every `Int`, negative ones included: `UInt8(_:)` cannot trap on it.
        let zByte = dialect.maskedByte ? "UInt8(\(z) & 0xFF)" : "UInt8(truncatingIfNeeded: \(z))"
        func array(_ bytes: [UInt8]) -> String {
            let list = "[" + bytes.map { "\($0)" }.joined(separator: ", ") + "]"
            return dialect.arrayCall ? "[UInt8](\(list))" : "(\(list) as [UInt8])"
        }
        switch random.element(dialect.codecs) {
        case 0:
            // A key stream: s, s·a + b, … (a odd).
            let a = random.byte() | 1
            let b = random.byte()
            var s = key
            var encoded: [UInt8] = []
            for p in plain {
                encoded.append(p ^ s)
                s = s &* a &+ b
            }
            return [
                "var s = \(literal(key)) ^ \(zByte)",
                "for x in \(array(encoded)) {",
                "    v.append(x ^ s)",
                "    s = s &* \(literal(a)) &+ \(literal(b))",
                "}",
            ]
        case 1:
            let encoded = plain.map { $0 &+ key }
            return ["for x in \(array(encoded)) { v.append(x &- (\(literal(key)) | \(zByte))) }"]
        case 2:
            let r = UInt8(random.pick(1...7))
            let encoded = plain.map { p in ((p << r) | (p >> (8 - r))) ^ key }
            return [
                "for x in \(array(encoded)) {",
                "    let y = x ^ (\(literal(key)) &+ \(zByte))",
                "    v.append((y >> \(r)) | (y << \(8 - r)))",
                "}",
            ]
        case 3:
            let encoded = plain.reversed().map { $0 ^ key }
            return ["for x in \(array(encoded)).reversed() { v.append(x ^ \(literal(key)) ^ \(zByte)) }"]
        default:
            let step = random.byte() | 1
            let encoded = plain.enumerated().map { i, p in p ^ key ^ UInt8(truncatingIfNeeded: i &* Int(step)) }
            return [
                "for (i, x) in \(array(encoded)).enumerated() {",
                "    v.append(x ^ \(literal(key)) ^ UInt8(truncatingIfNeeded: (i &+ \(z)) &* \(step)))",
                "}",
            ]
        }
    }

    private static func literal(_ byte: UInt8) -> String {
        "UInt8(\(byte))"
    }
}
