/// A table of public 32-bit constants (hash initial values and round constants) written differently by every
/// generation: each value XOR a per-table mask applied back at run time, in decimal or hexadecimal, lines of random
/// length — so that two generated files share no run of text.
enum ConstantTable {
    static func render(_ values: [UInt32], using random: inout SeededGenerator) -> String {
        let mask = UInt32(truncatingIfNeeded: random.next())
        let hex = random.below(2) == 0
        var lines: [String] = []
        var line: [String] = []
        var width = random.pick(3...9)
        for value in values {
            let masked = value ^ mask
            line.append(hex ? "0x" + String(masked, radix: 16, uppercase: random.below(2) == 0) : String(masked))
            if line.count == width {
                lines.append(line.joined(separator: ", "))
                line = []
                width = random.pick(3...9)
            }
        }
        if !line.isEmpty { lines.append(line.joined(separator: ", ")) }
        let maskText = hex ? "0x" + String(mask, radix: 16) : String(mask)
        return "([\n" + lines.map { "    " + $0 + "," }.joined(separator: "\n") + "\n] as [UInt32]).map { $0 ^ \(maskText) }"
    }
}
