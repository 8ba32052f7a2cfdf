import Foundation
import Testing

@testable import ReceiptCodegen

/// Where DecoyWriter puts decoys and where it must not: its rules read on a small piece, over many seeds.
struct DecoyWriterTests {
    static let piece = """
        /// Sums the words.
        private func total(_ words: [UInt64], _ extra: Int) -> UInt64? {
            // a template's note for its reader
            var sum: UInt64 = 0
            let flag: UInt64 = words.isEmpty ? 1 : 0
            var level: Int = extra &+ 1
            level = 0
            let doubled = words.map { word in
                let twice = word &* 2
                if twice > 100 {
                    let big = twice &+ 1
                    return big
                }
                return twice &+ 1
            }
            // hot
            for word in doubled {
                sum = sum &+ word
                sum = sum ^ (sum >> 7)
                sum = sum &* 3
                sum = sum &+ 5
                sum = sum ^ (sum << 9)
                sum = sum &+ 11
                sum = sum &* 13
                sum = sum ^ (sum >> 17)
            }
            sum = sum &+ UInt64(extra)
            return sum
        }
        """

    static func isDecoy(_ line: Substring) -> Bool {
        let code = line.drop { $0 == " " }
        return code.hasPrefix("if ") || code.hasPrefix("guard ") || (code.hasPrefix("let ") && Self.isBinding(line))
    }

    /// A decoy's binding in either of the dialects' spellings: `let x: UInt64 = (…)` or `let x = (…) as UInt64`.
    static func isBinding(_ line: Substring) -> Bool {
        line.contains(": UInt64 = (") || (line.contains(" = (") && line.hasSuffix(") as UInt64"))
    }

    static func write(seed: UInt8, piece: String = Self.piece) -> [Substring] {
        // Every seed its own dialect, as every generation has.
        var random = SeededGenerator(seed: [seed, 7, 7, 7], purpose: "decoy test")
        let dialect = Dialect.draw(using: &random)
        return DecoyWriter(density: 70, dialect: dialect).write(piece, using: &random).split(separator: "\n")
    }

    @Test func templateCommentsAreDroppedAndDocCommentsKept() {
        for seed in UInt8(0)..<20 {
            let lines = Self.write(seed: seed)
            #expect(lines.contains("/// Sums the words."))
            #expect(!lines.contains { $0.contains("// a template's note") || $0.contains("// hot") })
        }
    }

    @Test func nothingGoesInsideAClosure() {
        for seed in UInt8(0)..<20 {
            let lines = Self.write(seed: seed)
            guard let open = lines.firstIndex(where: { $0.hasSuffix("{ word in") }) else {
                Issue.record("the closure is missing")
                return
            }
            // Not even in a block within the closure, where an exit would leave the closure, not the function.
            let closure = lines[(open + 1)...].prefix(6).map { $0.drop { $0 == " " } }
            #expect(closure == ["let twice = word &* 2", "if twice > 100 {", "let big = twice &+ 1", "return big", "}",
                                "return twice &+ 1"], "seed \(seed)")
        }
    }

    @Test func twoValuedIntegersAreNeverADecoysOperand() {
        // The optimizer folds a predicate into both values of `flag` (or of a `var` set to a literal) and deletes the
        // arm; `words.count` and `extra` stay.
        var operands = 0
        for seed in UInt8(0)..<20 {
            for line in Self.write(seed: seed) where Self.isBinding(line) && Self.isDecoy(line) {
                operands += 1
                #expect(!line.contains("flag") && !line.contains("level"), "seed \(seed): \(line)")
            }
        }
        #expect(operands > 20)
    }

    @Test func noConstantMakesAPredicatesLowBitsKnown() throws {
        // The predicates read the low three bits of their operand: a multiplier must be odd and an `|` must leave
        // them alone, or the optimizer proves the predicate and deletes the arm.
        let multiplied = try Regex(#"(?:&\* (0x[0-9a-f]+)|(0x[0-9a-f]+) &\*)"#, as: (Substring, Substring?, Substring?).self)
        let ored = try Regex(#"(?:\| (0x[0-9a-f]+)\)|\((0x[0-9a-f]+) \|)"#, as: (Substring, Substring?, Substring?).self)
        /// The constants a regex with two alternative captures finds in `line`.
        func constants(_ regex: Regex<(Substring, Substring?, Substring?)>, in line: Substring) -> [UInt64] {
            line.matches(of: regex).compactMap { match in
                (match.output.1 ?? match.output.2).flatMap { UInt64($0.dropFirst(2), radix: 16) }
            }
        }
        var seen = (multiplied: 0, ored: 0)
        for seed in UInt8(0)..<40 {
            for line in Self.write(seed: seed) where Self.isBinding(line) {
                let (products, ors) = (constants(multiplied, in: line), constants(ored, in: line))
                seen.multiplied += products.count
                seen.ored += ors.count
                #expect(products.allSatisfy { $0 & 1 == 1 }, "seed \(seed): \(line)")
                #expect(ors.allSatisfy { $0 & 7 == 0 }, "seed \(seed): \(line)")
            }
        }
        #expect(seen.multiplied > 5 && seen.ored > 5)
    }

    @Test func everyOperandHoldsAConstantAndEndsWithAShift() throws {
        // The predicates read only the low bits: without a constant and a shift two decoys can test the same bits of
        // the same values, and the optimizer deletes the second as implied by the first.
        // (A binding whose predicate leaves the odd value to it ends in `| 1` after the shift.)
        let shift = try Regex(#"(?:>> \d+|&>> \d+|/ 0x[0-9a-f]+)\)(?: \| 1\))?(?: as UInt64)?$"#)
        var operands = 0
        for seed in UInt8(0)..<40 {
            for line in Self.write(seed: seed) where Self.isBinding(line) && Self.isDecoy(line) {
                operands += 1
                #expect(line.contains(shift), "seed \(seed): \(line)")
                // A constant besides the shift's own divisor (`/ 0x…`) and the odd bit.
                #expect(line.replacing(shift, with: "").contains("0x"), "seed \(seed): \(line)")
                // No value xored in twice (the two would cancel).
                for value in ["words.count", "extra", "sum"] {
                    #expect(line.ranges(of: value).count <= 1, "seed \(seed): \(line)")
                }
            }
        }
        #expect(operands > 40)
    }

    @Test func aHotLoopHasSparseDecoysThatBreakEveryRunOfSixLines() {
        var inHot = 0
        var total = 0
        for seed in UInt8(0)..<20 {
            let lines = Self.write(seed: seed)
            guard let start = lines.firstIndex(where: { $0.hasSuffix("for word in doubled {") }),
                let end = lines[start...].firstIndex(where: { $0 == "    }" })
            else {
                Issue.record("the loop is missing")
                return
            }
            let body = lines[(start + 1)..<end]
            inHot += body.filter(Self.isDecoy).count
            total += lines.filter(Self.isDecoy).count
            // No six lines of the template in a row inside the loop.
            var run = 0
            for line in body {
                run = Self.isDecoy(line) ? 0 : run + 1
                #expect(run < 6, "seed \(seed): six template lines in a row")
            }
        }
        // Decoys in the hot loop, but fewer than the usual density (70 % of 8 places, two lines each) would put there.
        #expect(inHot > 0)
        #expect(inHot < 20 * 8)
        #expect(total > inHot)
    }

    @Test func aTightLoopTakesNoDecoysAndTheLinesAroundItStillDo() {
        let piece = Self.piece.replacingOccurrences(
            of: "    // hot\n    for word in doubled {",
            with: """
                    // hot
                    for word in doubled {
                        var j = 0
                        // tight
                        while j < 4 {
                            let high = sum >> 32
                            sum = sum ^ high
                            sum = (sum << 3) | (sum >> 61)
                            sum = sum &- word
                            let low = sum & 0xFF
                            sum = sum | low
                            j &+= 1
                        }
                """
        )
        #expect(piece != Self.piece)
        var around = 0
        for seed in UInt8(0)..<20 {
            let lines = Self.write(seed: seed, piece: piece)
            guard let start = lines.firstIndex(where: { $0.hasSuffix("while j < 4 {") }),
                let end = lines[start...].firstIndex(where: { $0 == "        }" })
            else {
                Issue.record("the tight loop is missing")
                return
            }
            #expect(lines[(start + 1)..<end].filter(Self.isDecoy).isEmpty, "seed \(seed): a decoy in the tight loop")
            #expect(lines[(start + 1)..<end].count == 7)  // its seven statements, as written
            // A decoy right before its head, always: the head's lines would otherwise start a run with the body's.
            #expect(start > 0 && Self.isDecoy(lines[start - 1]), "seed \(seed): \(lines[max(start - 1, 0)])")
            around += lines[end...].prefix(12).filter(Self.isDecoy).count
        }
        #expect(around > 0)  // the hot loop's lines after the tight one still take decoys
    }

    /// A piece whose hot loop has a `UInt64` local in scope besides counts and an `Int`.
    static let pieceWithLocal = """
        private func mix(_ words: [UInt64], _ extra: Int, _ base: UInt64) -> UInt64? {
            var sum: UInt64 = 0
            let key: UInt64 = base ^ 0x5
            sum = sum &+ UInt64(extra)
            sum = sum ^ key
            sum = sum &* 3
            // hot
            for word in words {
                let high = word >> 32
                let low = word & 0xFFFF_FFFF
                sum = (sum << 5) | (sum >> 59)
                sum = sum ^ high
                sum = sum &- low
                sum = sum &* 0x9E37
            }
            return sum
        }
        """

    @Test func hotDecoysReadOnlyUInt64LocalsWhenThereAreAny() {
        var hotDecoys = 0
        var coldOnCounts = 0
        for seed in UInt8(0)..<30 {
            let lines = Self.write(seed: seed, piece: Self.pieceWithLocal)
            guard let start = lines.firstIndex(where: { $0.hasSuffix("for word in words {") }),
                let end = lines[start...].firstIndex(where: { $0 == "    }" })
            else {
                Issue.record("the loop is missing")
                return
            }
            for (index, line) in lines.enumerated() where Self.isBinding(line) && Self.isDecoy(line) {
                if index > start && index < end {
                    hotDecoys += 1
                    // Loop-invariant values the optimizer keeps in a register: no count, no `Int` conversion.
                    #expect(!line.contains("words.count") && !line.contains("extra"), "seed \(seed): \(line)")
                    #expect(line.contains("base") || line.contains("key"), "seed \(seed): \(line)")
                } else if line.contains("words.count") || line.contains("extra") {
                    coldOnCounts += 1
                }
            }
        }
        #expect(hotDecoys > 30)
        #expect(coldOnCounts > 0)  // outside hot blocks every value is still used
    }

    @Test func usableValuesFallBackToEverythingWithoutALocal() {
        let values = ["UInt64(words.count)", "UInt64(truncatingIfNeeded: extra)", "key", "base"]
        #expect(DecoyWriter.usable(values, hot: true) == ["key", "base"])
        #expect(DecoyWriter.usable(values, hot: false) == values)
        #expect(DecoyWriter.usable(Array(values.prefix(2)), hot: true) == Array(values.prefix(2)))
    }
}
