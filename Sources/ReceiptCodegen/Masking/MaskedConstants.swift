/// The sensitive byte strings of one entry point, written so that none of them — nor any 6-byte piece — is in the
/// generated source or the compiled binary: each is split into chunks of 2 to 5 bytes, each chunk encoded with its own
/// codec and key, and recombined at run time by loops whose keys mix in `z`, a value that is 0 for every real input
/// but that the optimizer cannot know (so it cannot fold the decoding back into plaintext).
///
/// The generated function is `«name»(z: Int) -> [[UInt8]]` (`z: UInt64` in a dialect with ``Dialect/wideZero``);
/// constant `i` is at the index ``index(of:)`` gives.
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
            guard !bytes.isEmpty else { continue }  // `out` holds it already
            body.append("do {")
            // The lines around the chunks in one of several spellings each, as the chunks' own.
            body.append(random.element(["    var v = [UInt8]()", "    var v: [UInt8] = []"]))
            if random.below(2) == 0 { body.append("    v.reserveCapacity(\(bytes.count))") }
            var start = 0
            while start < bytes.count {
                let length = min(bytes.count - start, random.pick(2...5))
                let chunk = Array(bytes[start..<(start + length)])
                body.append("    do {")
                body.append(contentsOf: Self.chunk(chunk, z: z, dialect: dialect, using: &random).map { "        " + $0 })
                body.append("    }")
                start += length
            }
            body.append(random.element(["    out[\(slot)] = v", "    out[\(slot)] += v", "    out[\(slot)].append(contentsOf: v)"]))
            body.append("}")
        }
        body.append("return out")
        return "private func \(name)(_ \(z): \(dialect.wideZero ? "UInt64" : "Int")) -> [[UInt8]] {\n" + body.map { "    " + $0 }.joined(separator: "\n") + "\n}"
    }

    /// One chunk: an encoded literal and the loop that decodes it into `v`, in the dialect's spelling.
    private static func chunk(_ plain: [UInt8], z: String, dialect: Dialect, using random: inout SeededGenerator) -> [String] {
        let code = Self.codec(plain, z: z, dialect: dialect, using: &random)
        let list = "[" + code.encoded.map { "\($0)" }.joined(separator: ", ") + "]"
        let array = dialect.arrayCall ? "[UInt8](\(list))" : "(\(list) as [UInt8])"
        let body = code.step.map { "    " + $0 }
        // The indexed codec's `i` counts the encoded bytes; a reversed chunk is read from its end.
        let sequence = code.reversed ? "\(array).reversed()" : array
        switch random.element(dialect.chunkLoops) {
        case 0:
            return code.prelude + [code.indexed ? "for (i, x) in \(sequence).enumerated() {" : "for x in \(sequence) {"] + body + ["}"]
        case 1:
            return code.prelude + [code.indexed ? "\(sequence).enumerated().forEach { i, x in" : "\(sequence).forEach { x in"] + body + ["}"]
        default:
            let indices = code.reversed ? "(0..<a.count).reversed()" : "0..<a.count"
            return code.prelude + ["let a = \(array)", "for i in \(indices) {", "    let x = a[i]"] + body + ["}"]
        }
    }

    /// A chunk encoded with one of the dialect's codecs: what precedes the loop, the loop's step for byte `x` (at
    /// index `i` when `indexed`) appending to `v`, and whether the loop reads the encoded bytes last to first.
    private static func codec(
        _ plain: [UInt8], z: String, dialect: Dialect, using random: inout SeededGenerator
    ) -> (encoded: [UInt8], prelude: [String], step: [String], indexed: Bool, reversed: Bool) {
        let key = random.byte()
        // `z & 0xFF` is in 0...255 for every `Int` or `UInt64`, negative ones included: `UInt8(_:)` cannot trap on it. `z` is 0,
        // so every way of mixing it in leaves the key as it is.
        let zByte = dialect.maskedByte ? "UInt8(\(z) & 0xFF)" : "UInt8(truncatingIfNeeded: \(z))"
        let mixed: String
        switch random.element(dialect.keyMixes) {
        case 0: mixed = "(\(literal(key)) | \(zByte))"
        case 1: mixed = "(\(zByte) | \(literal(key)))"
        case 2: mixed = "(\(literal(key)) ^ \(zByte))"
        case 3: mixed = "(\(zByte) ^ \(literal(key)))"
        case 4: mixed = "(\(literal(key)) &+ \(zByte))"
        default: mixed = "(\(zByte) &+ \(literal(key)))"
        }
        /// `value op key`, or `key op value` when the dialect writes the key first (`op` commutative: `^`, `&+`).
        func apply(_ value: String, _ op: String, _ key: String) -> String {
            dialect.keyFirst ? "\(key) \(op) \(value)" : "\(value) \(op) \(key)"
        }
        switch random.element(dialect.codecs) {
        case 0:
            // A multiplicative key stream: s, s·a + b, … (a odd).
            let a = random.byte() | 1
            let b = random.byte()
            var s = key
            var encoded: [UInt8] = []
            for p in plain {
                encoded.append(p ^ s)
                s = s &* a &+ b
            }
            return (encoded, ["var s = \(mixed)"], ["v.append(\(apply("x", "^", "s")))", "s = s &* \(literal(a)) &+ \(literal(b))"], false, false)
        case 1:
            return (plain.map { $0 &+ key }, [], ["v.append(x &- \(mixed))"], false, false)
        case 2:
            let r = UInt8(random.pick(1...7))
            let encoded = plain.map { p in ((p << r) | (p >> (8 - r))) ^ key }
            return (encoded, [], ["let y = \(apply("x", "^", mixed))", "v.append((y >> \(r)) | (y << \(8 - r)))"], false, false)
        case 3:
            return (plain.reversed().map { $0 ^ key }, [], ["v.append(\(apply("x", "^", mixed)))"], false, true)
        case 4:
            let step = random.byte() | 1
            let encoded = plain.enumerated().map { i, p in p ^ key ^ UInt8(truncatingIfNeeded: i &* Int(step)) }
            let i = dialect.wideZero ? "UInt64(truncatingIfNeeded: i)" : "i"
            let index = "UInt8(truncatingIfNeeded: (\(i) &+ \(z)) &* \(step))"
            return (encoded, [], ["v.append(\(apply("x", "^", literal(key))) ^ \(index))"], true, false)
        case 5:
            // An additive key stream: s, s + d, …
            let d = random.byte() | 1
            var s = key
            var encoded: [UInt8] = []
            for p in plain {
                encoded.append(p &+ s)
                s = s &+ d
            }
            return (encoded, ["var s = \(mixed)"], ["v.append(x &- s)", "s = \(apply("s", "&+", literal(d)))"], false, false)
        default:
            // Chained: each byte masks the next (the first with the key).
            var c = key
            var encoded: [UInt8] = []
            for p in plain {
                c = p ^ c
                encoded.append(c)
            }
            return (encoded, ["var c = \(mixed)"], ["v.append(\(apply("x", "^", "c")))", "c = x"], false, false)
        }
    }

    private static func literal(_ byte: UInt8) -> String {
        "UInt8(\(byte))"
    }
}
