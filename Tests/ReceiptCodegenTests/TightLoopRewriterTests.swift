import Foundation
import Testing

@testable import ReceiptCodegen

/// What TightLoopRewriter may change in a tight loop (order, operand order, tuples, terms) and what it must keep:
/// every dependency. That the rewritten arithmetic still computes the same is PrimitiveTests' part (three rewrites
/// of each RSA variant against swift-crypto) and AgreementTests' (whole generations).
struct TightLoopRewriterTests {
    /// The interleaved variant's template, whose one tight loop is `while j < s`.
    static let piece = BigNumberTemplates.interleaved

    static func body(seed: UInt8, piece: String = Self.piece) -> [String] {
        var random = SeededGenerator(seed: [seed, 1, 2, 3], purpose: "tight test")
        let lines = TightLoopRewriter().rewrite(piece, using: &random).split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasSuffix("while j < s {") }),
            let end = lines[start...].firstIndex(of: String(lines[start].prefix { $0 == " " }) + "}")
        else { return [] }
        return lines[(start + 1)..<end].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func everyRewriteKeepsEveryDependency() {
        for seed in UInt8(0)..<200 {
            let body = Self.body(seed: seed)
            #expect(body.count == 10, "seed \(seed)")
            // A name the body defines (destructured, or whole: `phpl` for `(ph, pl)`) is defined before it is read.
            let pairs = [("ph", "pl"), ("a1", "o1"), ("a2", "o2"), ("qh", "ql"), ("b1", "o3"), ("b2", "o4")]
            let local = Set(pairs.flatMap { [$0.0, $0.1, $0.0 + $0.1] })
            var defined: Set<String> = []
            for line in body {
                let value = line.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
                for name in TightLoopRewriter.identifiers(in: value) where local.contains(name) {
                    #expect(defined.contains(name), "seed \(seed): \(line) reads \(name) before it is defined")
                }
                if line.hasPrefix("let ") {
                    let pattern = line.dropFirst(4).prefix(while: { $0 != "=" && $0 != ":" })
                    for name in pattern.split(separator: ",") {
                        defined.insert(name.trimmingCharacters(in: CharacterSet(charactersIn: "() ")))
                    }
                }
            }
            // The carries are read before they are assigned; t[j] is read before t[j - 1] is stored.
            func index(_ prefix: String) -> Int { body.firstIndex { $0.hasPrefix(prefix) } ?? -1 }
            func reading(_ name: String) -> Int {
                body.firstIndex { !$0.hasPrefix(name + " =") && TightLoopRewriter.identifiers(in: $0).contains(name) } ?? -1
            }
            #expect(reading("cx") >= 0 && reading("cx") < index("cx ="), "seed \(seed)")
            // A carry's sum comes right after the addition whose flag it reads.
            let a2 = body.firstIndex { $0.hasPrefix("let (a2, o2)") || $0.hasPrefix("let a2o2 ") } ?? -2
            let b2 = body.firstIndex { $0.hasPrefix("let (b2, o4)") || $0.hasPrefix("let b2o4 ") } ?? -2
            #expect(index("cx =") == a2 + 1 && index("cn =") == b2 + 1, "seed \(seed)")
            #expect(reading("cn") >= 0 && reading("cn") < index("cn ="), "seed \(seed)")
            // The signature word's product before the modulus word's, as written (the other order is slower).
            let products = body.indices.filter { body[$0].contains(".multipliedFullWidth(") }
            #expect(products.count == 2 && body[products[0]].contains("xi") && body[products[1]].contains("n[j]"), "seed \(seed)")
            let loadsT = body.firstIndex { $0.contains("t[j]") } ?? -1
            #expect(loadsT >= 0 && loadsT < index("t[j &- 1] ="), "seed \(seed)")
            // j moves (`j &+= 1`, `j = j &+ 1` or `j = 1 &+ j`) after every statement that reads it (a carry's sum,
            // which does not, may follow).
            let moves = index("j ")
            #expect(moves >= 0 && body.indices.allSatisfy { $0 <= moves || !TightLoopRewriter.identifiers(in: body[$0]).contains("j") })
        }
    }

    @Test func ordersAndSpellingsDifferFromSeedToSeed() {
        let bodies = (UInt8(0)..<200).map { Self.body(seed: $0) }
        #expect(Set(bodies).count > 190)
        let lines = bodies.flatMap { $0 }
        #expect(lines.contains { $0.hasSuffix(".multipliedFullWidth(by: xi)") })  // operands swapped
        #expect(lines.contains { $0.hasPrefix("let (ph, pl) = xi.multipliedFullWidth(by: y[j])") })  // or not
        #expect(lines.contains { $0.contains(".high") && $0.contains(".overflow") })  // read through members
        #expect(lines.contains { $0.hasSuffix(" as (UInt64, Bool)") } && lines.contains { $0.hasSuffix(" as (UInt64, UInt64)") })  // cast
        #expect(lines.contains { $0.hasPrefix("cx = bit(") })  // the terms in another order
        // A carry word called or written out (as its function's body), whichever way its flag is read.
        #expect(lines.contains { $0.contains("UInt64(unsafeBitCast(o1, to: UInt8.self))") } && lines.contains { $0.contains("bit(o1)") })
        #expect(lines.contains { $0.contains("UInt64(unsafeBitCast(a1o1.overflow, to: UInt8.self))") })
        // The multiplication by the modulus word moved before the first addition in some rewrites, not in others.
        let early = bodies.filter { body in
            let n = body.firstIndex { $0.contains("n[j]") } ?? 0
            let a1 = body.firstIndex { $0.contains("t[j]") && !$0.hasPrefix("t[") } ?? 0
            return n < a1
        }
        #expect(!early.isEmpty && early.count < bodies.count)
    }

    @Test func copiesPairIntoOneAssignmentOnlyWhenIndependent() {
        let piece = """
                var j = 0
                // tight
                while j < 4 {
                    let (h, l) = x.multipliedFullWidth(by: y[j])
                    let (s0, o0) = t0.addingReportingOverflow(l)
                    t1 = t1 &+ flag(o0)
                    u = s0
                    v = h
                    w = u
                    j &+= 1
                }
            """
        var paired = 0
        var compound = 0
        for seed in UInt8(0)..<100 {
            var random = SeededGenerator(seed: [seed, 7], purpose: "tight test")
            let lines = TightLoopRewriter().rewrite(piece, using: &random).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            for line in lines where line.hasPrefix("(") {
                // `(a, b) = (c, d)`: neither source reads the other's target (`w = u` never pairs with `u = s0`).
                let sides = line.components(separatedBy: " = ")
                let targets = TightLoopRewriter.identifiers(in: sides.first ?? "")
                let sources = sides.count == 2 ? sides[1].dropFirst().dropLast().components(separatedBy: ", ") : []
                #expect(targets.count == 2 && sources.count == 2, "seed \(seed): \(line)")
                if targets.count == 2, sources.count == 2 {
                    #expect(!TightLoopRewriter.identifiers(in: sources[1]).contains(targets[0]), "seed \(seed): \(line)")
                    #expect(!TightLoopRewriter.identifiers(in: sources[0]).contains(targets[1]), "seed \(seed): \(line)")
                }
                paired += 1
            }
            compound += lines.filter { $0.hasPrefix("t1 &+= ") }.count
            // `w = u` still reads the new `u`: after it, alone or paired.
            func assigning(_ name: String) -> Int? {
                lines.firstIndex { TightLoopRewriter.identifiers(in: $0.components(separatedBy: " = ").first ?? "").contains(name) }
            }
            #expect(assigning("u") != nil && assigning("w") != nil && (assigning("u") ?? 0) < (assigning("w") ?? 0), "seed \(seed)")
        }
        // Some rewrites pair copies, others leave them apart; `t1 = t1 &+ x` sometimes as `t1 &+= x`.
        #expect(paired > 5 && paired < 100)
        #expect(compound > 5 && compound < 100)
    }

    @Test func aBodyItCannotFollowStaysAsWritten() {
        let piece = Self.piece.replacingOccurrences(of: "t[j &- 1] = b2\n", with: "t[j &- 1] = b2\n" + String(repeating: " ", count: 24) + "if j > 9 { break }\n")
        #expect(piece != Self.piece)
        var random = SeededGenerator(seed: [9], purpose: "tight test")
        #expect(TightLoopRewriter().rewrite(piece, using: &random) == piece)
        // A sum whose terms are not all plain (a group of its own) keeps its order.
        let grouped = Self.piece.replacingOccurrences(of: "cx = ph &+ bit(o1) &+ bit(o2)", with: "cx = ph &+ (bit(o1) &+ bit(o2))")
        #expect(grouped != Self.piece)
        for seed in UInt8(0)..<50 {
            let sum = Self.body(seed: seed, piece: grouped).first { $0.hasPrefix("cx = ") } ?? ""
            // `ph` maybe read as `phpl.high`, the group's carries maybe written out: still ph, then the group.
            let read = sum.replacingOccurrences(of: "phpl.high", with: "ph")
            #expect(read.hasPrefix("cx = ph &+ (") && read.hasSuffix("))"), "seed \(seed): \(sum)")
        }
        // Nor is anything outside a tight block touched.
        let plain = Self.piece.replacingOccurrences(of: "// tight\n", with: "")
        #expect(TightLoopRewriter().rewrite(plain, using: &random) == plain)
    }
}
