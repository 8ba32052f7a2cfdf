import Foundation
import Testing

@testable import ReceiptCodegen

/// The unrolled SHA-1 bodies as a generation writes them: spelled per seed, moved a few places by
/// TightLoopRewriter, no decoys. That they still hash right is PrimitiveTests' part (each form in three spellings
/// against swift-crypto) and AgreementTests' (whole generations).
struct SHA1RoundsTests {
    /// The `compress` body of an unrolled variant after rendering and TightLoopRewriter, trimmed.
    static func body(_ template: String, seed: UInt8) throws -> [String] {
        var random = SeededGenerator(seed: [seed, 7, 7], purpose: "sha1 rounds test")
        let names = ["sha1": "hash"]
        let dialect = Dialect.draw(using: &random)
        let rendered = try TemplateRenderer(names: names, constants: MaskedConstants(), dialect: dialect).render(template, using: &random)
        let lines = TightLoopRewriter().rewrite(rendered, using: &random).split(separator: "\n").map(String.init)
        guard let marker = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == DecoyWriter.unrolledMarker }),
            let end = lines[(marker + 2)...].firstIndex(of: String(lines[marker + 1].prefix { $0 == " " }) + "}")
        else { return [] }
        return lines[(marker + 2)..<end].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func singleAssignmentDefinesEveryValueBeforeItIsRead() throws {
        for seed in UInt8(0)..<20 {
            let body = try Self.body(HashTemplates.sha1SingleAssignment, seed: seed)
            // 16 loads, 64 schedule words (one or two statements each), 5 state reads, 80 rotations, 80 rounds, 5 sums.
            #expect(body.count >= 16 + 64 + 5 + 80 + 80 + 5 && body.count <= 16 + 128 + 5 + 80 + 80 + 5, "seed \(seed)")
            var defined: Set<String> = ["p", "h", "k0", "k1", "k2", "k3", "UInt32", "bigEndian", "fromByteOffset", "as", "by"]
            for line in body {
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                for name in TightLoopRewriter.identifiers(in: parts.last ?? "") {
                    #expect(defined.contains(name), "seed \(seed): \(line) reads \(name) before it is defined")
                }
                if let left = parts.first, left.hasPrefix("let ") {
                    // `let w0 = …` or `let w0: UInt32 = …`
                    let name = String(left.dropFirst(4).prefix { $0 != ":" })
                    #expect(!defined.contains(name), "seed \(seed): \(name) defined twice")
                    defined.insert(name)
                }
            }
            // The state is written back once, from the last values (after them: checked above), each after its read.
            let writes = ["a80", "a79", "r78", "r77", "r76"].enumerated().map { j, value in
                body.indices.filter { body[$0].hasPrefix("h[\(j)] ") && body[$0].contains(value) }
            }
            #expect(writes.allSatisfy { $0.count == 1 }, "seed \(seed)")
            let lastRead = body.lastIndex { $0.hasPrefix("let s") } ?? body.count
            #expect(writes.allSatisfy { ($0.first ?? 0) > lastRead }, "seed \(seed)")
        }
    }

    /// The in-place form only assigns the five state words and the sixteen schedule words (its reorderings are
    /// checked by hashing: PrimitiveTests runs three of them against swift-crypto).
    @Test func inPlaceAssignsOnlyTheStateAndTheSchedule() throws {
        for seed in UInt8(0)..<20 {
            let body = try Self.body(HashTemplates.sha1InPlace, seed: seed)
            #expect(body.count >= 21 + 80 * 2 + 64 + 5 && body.count <= 21 + 80 * 2 + 128 + 5, "seed \(seed)")
            let targets = body.map { ($0.hasPrefix("var ") ? $0.dropFirst(4) : Substring($0)).prefix { $0 != " " && $0 != "[" && $0 != ":" } }
            #expect(Set(targets) == Set(["a", "b", "c", "d", "e", "h"] + (0..<16).map { "w\($0)" }), "seed \(seed)")
            // Each variable is declared once, before anything reads or assigns it.
            for name in ["a", "b", "c", "d", "e"] + (0..<16).map({ "w\($0)" }) {
                func declares(_ line: String) -> Bool { line.hasPrefix("var \(name) = ") || line.hasPrefix("var \(name): UInt32 = ") }
                let declared = body.firstIndex(where: declares) ?? body.count
                let used = body.firstIndex { !declares($0) && TightLoopRewriter.identifiers(in: $0).contains(name) } ?? body.count
                #expect(declared < used, "seed \(seed): \(name)")
            }
            // Round 0 reads the loaded words only: nothing of the schedule is written before it.
            let firstSchedule = body.firstIndex { $0.hasPrefix("w") && !$0.hasPrefix("var") } ?? 0
            let firstRound = body.firstIndex { $0.hasPrefix("e = ") } ?? body.count
            #expect(firstRound < firstSchedule, "seed \(seed)")
        }
    }

    @Test func spellingsAndOrdersDifferFromSeedToSeedButStayNearTheWrittenOrder() throws {
        var bodies: Set<[String]> = []
        var rotations: Set<String> = []
        for seed in UInt8(0)..<10 {
            let body = try Self.body(HashTemplates.sha1SingleAssignment, seed: seed)
            bodies.insert(body)
            var spelled: Set<String> = []
            for line in body where line.hasPrefix("let r") {
                // `let r5 = ((a5 << 30) | (a5 >> 2))` → `((ID << 30) | (ID >> 2))`
                spelled.insert(line.split(separator: "=", maxSplits: 1)[1].replacingOccurrences(of: #"[a-z]+[0-9]+"#, with: "ID", options: .regularExpression))
            }
            // A generation's two spellings of twelve (its dialect's), both used in eighty rotations.
            #expect(spelled.count == 2, "seed \(seed): \(spelled)")
            rotations.formUnion(spelled)
            // Near: the round values come in order, each at most a few places from where the written order puts it
            // among the rounds (a window of 4 cannot carry a statement far ahead of the ones it depends on).
            let rounds = body.compactMap { line -> Int? in
                guard line.hasPrefix("let a") else { return nil }
                return Int(line.dropFirst(5).prefix { $0.isNumber })
            }
            #expect(rounds == Array(1...80), "seed \(seed)")
            let firstRound = body.firstIndex { $0.hasPrefix("let a1 ") } ?? 0
            let lastLoad = body.lastIndex { $0.contains("loadUnaligned") } ?? 0
            #expect(lastLoad < firstRound + 40, "seed \(seed): the loads drifted far into the rounds")
        }
        #expect(bodies.count == 10)
        #expect(rotations.count >= 8, "\(rotations)")
    }

    /// The template's `compress` has only pointers, which no decoy reads; here it also takes an integer, so that only
    /// the marker keeps decoys out of the block (with ``DecoyWriter/hotMarker`` instead, this test fails).
    @Test func decoysStayOutOfAnUnrolledBlock() throws {
        var random = SeededGenerator(seed: [9, 9], purpose: "sha1 rounds decoys")
        let template = HashTemplates.sha1SingleAssignment.replacingOccurrences(
            of: "_ p: UnsafeRawPointer) {", with: "_ p: UnsafeRawPointer, _ at: Int) {")
        let dialect = Dialect.draw(using: &random)
        let rendered = try TemplateRenderer(names: ["sha1": "hash"], constants: MaskedConstants(), dialect: dialect).render(template, using: &random)
        let written = DecoyWriter(density: 100, dialect: dialect).write(rendered, using: &random)
        let lines = written.split(separator: "\n").map(String.init)
        guard let compress = lines.firstIndex(where: { $0.contains("func compress(") }),
            let open = lines[compress...].firstIndex(where: { $0.hasSuffix("do {") }),
            let close = lines[open...].firstIndex(of: String(lines[open].prefix { $0 == " " }) + "}")
        else {
            Issue.record("the unrolled block is missing")
            return
        }
        #expect(close - open > 250)  // the whole body: 250 statements at the least
        #expect(lines[open...close].allSatisfy { !$0.contains("return") && !$0.contains("UInt64") })
        // Decoys read `at` in the same function, before the block.
        #expect(lines[compress..<open].contains { $0.contains("return") && $0.contains("&*") })
    }
}
