import Foundation
import Testing

@testable import ReceiptCodegen

/// Every spelling of an opaque predicate a dialect can draw, compiled as a generation compiles it (`-O`, warnings as
/// errors): true (or false) for every run-time value, and not proved so by the optimizer — its dead arm's 64-bit
/// constant is still in the machine code. (AgreementTests and release-check see only the spellings their seeds draw.)
@Suite(.enabled(if: HarnessBuild.swiftc != nil, Comment(rawValue: HarnessBuild.skipMessage)))
struct PredicateTests {
    /// Every form: four identities, three ways to the odd value, powers grouped or not, three tests, either side first.
    static let forms: [Dialect.Predicate] = (0..<4).flatMap { identity in
        (0..<3).flatMap { odd in
            [false, true].flatMap { grouped in
                (0..<3).flatMap { test in
                    [false, true].map { constantFirst in
                        Dialect.Predicate(identity: identity, odd: odd, grouped: grouped, test: test, constantFirst: constantFirst)
                    }
                }
            }
        }
    }

    @Test func everySpellingHoldsForEveryValueAndKeepsItsDeadArm() async throws {
        var random = SeededGenerator(seed: Array("predicate-tests".utf8), purpose: "tests")
        var source = ""
        var names: [String] = []
        var arms: [UInt64] = []
        for form in Self.forms {
            // A binding that leaves the odd value to the predicate, and (for the third way) one that makes it odd.
            for bound in form.odd == 2 ? [false, true] : [false] {
                for truth in [true, false] {
                    let name = "p\(names.count)"
                    // A dead arm's constant: 64 bits wide, so that the compiler writes it as one immediate.
                    let arm = random.next() | 1 << 63
                    let predicate = DecoyWriter.predicate(truth, "y", form: form, bound: bound, using: &random)
                    // As a decoy's binding: a run-time value shifted (its low bits unknown), maybe made odd.
                    let binding = bound ? "let y: UInt64 = (x >> 3) | 1" : "let y: UInt64 = x >> 3"
                    let branch = truth ? "guard \(predicate) else { return 0x\(String(arm, radix: 16)) }" : "if \(predicate) { return 0x\(String(arm, radix: 16)) }"
                    source += "@inline(never) func \(name)(_ x: UInt64) -> UInt64 {\n    \(binding)\n    \(branch)\n    return y\n}\n\n"
                    names.append(name)
                    arms.append(arm)
                }
            }
        }
        // For each function, the run-time values it is called with: the 64-bit words of `a`, each also turned by a
        // step of a 64-bit LCG, 4,096 values in all.
        let list = names.joined(separator: ", ")
        source += """
            let predicates: [(UInt64) -> UInt64] = [\(list)]

            """
        let cases = [
            #"""
            case "check":
                var failing: [Int] = []
                for (i, p) in predicates.enumerated() {
                    var x = a.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    for _ in 0..<4_096 {
                        if p(x) >> 63 != 0 { failing.append(i); break }  // an arm (a value `y` is below 2^61)
                        x = x &* 6364136223846793005 &+ 1442695040888963407
                    }
                }
                out = failing.isEmpty ? "ok" : failing.map(String.init).joined(separator: ",")
            """#
        ]
        let program = try await LineProgram(declarations: source, cases: cases, name: "rk-predicates")
        let answers = try await program.ask(["check 0123456789abcdef", "check ffffffffffffffff", "check 0000000000000000"])
        #expect(answers == ["ok", "ok", "ok"], "failing spellings (index into the functions): \(answers)")

        // The arms, by their little-endian bytes in the optimized executable.
        let binary = [UInt8](try Data(contentsOf: program.executable))
        var missing: [String] = []
        for (name, arm) in zip(names, arms) {
            let bytes = (0..<8).map { UInt8(truncatingIfNeeded: arm >> UInt64(8 * $0)) }
            if !Self.contains(binary, bytes) { missing.append(name) }
        }
        #expect(missing.isEmpty, "dead arms optimized away: \(missing)")
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first, Array(haystack[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }
}
