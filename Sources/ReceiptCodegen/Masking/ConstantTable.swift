/// A table of public 32-bit constants (hash initial values and round constants) written differently by every
/// generation: each value masked with a per-table key (XOR, or a wrapping sum or difference) undone at run time, in
/// decimal or hexadecimal, lines of random length — so that two generated files share no run of text.
enum ConstantTable {
    /// How many values a line holds. Not fewer than four: a short table (SHA-256's eight initial values) cut into
    /// lines of one to three made runs of six lines whose shape two generations could share.
    static let widths = 4...16

    static func render(_ values: [UInt32], using random: inout SeededGenerator) -> String {
        let mask = UInt32(truncatingIfNeeded: random.next())
        let hex = random.below(2) == 0
        let maskText = hex ? "0x" + String(mask, radix: 16) : String(mask)
        let (encode, decode): ((UInt32) -> UInt32, String) =
            switch random.below(4) {
            case 0: ({ $0 ^ mask }, "$0 ^ \(maskText)")
            case 1: ({ $0 ^ mask }, "\(maskText) ^ $0")
            case 2: ({ $0 &- mask }, "$0 &+ \(maskText)")
            default: ({ $0 &+ mask }, "$0 &- \(maskText)")
            }
        var lines: [String] = []
        var line: [String] = []
        var width = random.pick(Self.widths)
        for value in values {
            let masked = encode(value)
            line.append(hex ? "0x" + String(masked, radix: 16, uppercase: random.below(2) == 0) : String(masked))
            if line.count == width {
                lines.append(line.joined(separator: ", "))
                line = []
                width = random.pick(Self.widths)
            }
        }
        if !line.isEmpty { lines.append(line.joined(separator: ", ")) }
        return "([\n" + lines.map { "    " + $0 + "," }.joined(separator: "\n") + "\n] as [UInt32]).map { \(decode) }"
    }
}
