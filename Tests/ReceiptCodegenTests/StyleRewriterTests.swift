import Testing

@testable import ReceiptCodegen

/// The dialects' rewrites keep the meaning: each applies where it is sure to and leaves every other line as written.
/// (That the rewritten validators compile and agree with ReceiptValidator is AgreementTests' proof.)
struct StyleRewriterTests {
    @Test func comparisonsOfSimpleOperandsAreMirrored() {
        #expect(StyleRewriter.mirrorComparisons("    guard top.0 == 0x30, top.3 == b.count,") == "    guard 0x30 == top.0, b.count == top.3,")
        #expect(StyleRewriter.mirrorComparisons("if i < n && a[i] >= 7 {") == "if n > i && 7 <= a[i] {")
        #expect(StyleRewriter.mirrorComparisons("for i in path where certs[i].1.6 > when || x != y {") == "for i in path where when < certs[i].1.6 || y != x {")
        #expect(StyleRewriter.mirrorComparisons("return (m <= 3)") == "return (3 >= m)")
    }

    @Test func comparisonsBesideTighterOperatorsStay() {
        for line in [
            "guard a + b == c else { return nil }",  // `a + c == b` would be another test
            "guard c == a + b else { return nil }",
            "if ((x | 1) &* (x | 1)) & 7 == 1 { return nil }",
            "guard b[parts[2].2] == 0 else { return nil }",  // a nested subscript is not a simple operand
            "let r = f(a) == 0",
            "guard x == -1 else { return nil }",
            "var out: [(Int, Int)] = []",
            "let s = x >> 3",
            "x >>= 3",
            "for i in 0..<n {",
        ] {
            #expect(StyleRewriter.mirrorComparisons(line) == line, "\(line)")
        }
    }

    @Test func aGuardOnSeveralLinesBecomesOneGuardALine() {
        let lines = [
            "    guard let top = f(b), top.0 == 0x30,",
            "        let parts = g(b, top.1,",
            "            top.2), parts.count == 3,",
            "        parts[0].0 == 0x30",
            "    else { return nil }",
            "    return parts",
        ]
        #expect(StyleRewriter.splitGuards(lines) == [
            "    guard let top = f(b), top.0 == 0x30 else { return nil }",
            // A clause spread over two lines stays one guard.
            "    guard let parts = g(b, top.1,",
            "        top.2), parts.count == 3 else { return nil }",
            "    guard parts[0].0 == 0x30 else { return nil }",
            "    return parts",
        ])
        // An `else` of several lines, or a guard on one line, stays.
        let kept = ["guard a,", "    b", "else {", "    return nil", "}"]
        #expect(StyleRewriter.splitGuards(kept) == kept)
        #expect(StyleRewriter.splitGuards(["guard a, b else { return nil }"]) == ["guard a, b else { return nil }"])
    }

    @Test func aGuardWithoutBindingsBecomesANegatedIf() {
        #expect(StyleRewriter.negatedIf("    guard m.count >= t.count + 11 else { return 1 }") == "    if !(m.count >= t.count + 11) { return 1 }")
        for line in [
            "guard let x = f() else { return nil }",
            "guard a, b else { return nil }",  // a list
            "guard case .some = x else { return nil }",
            "guard a.contains(where: { $0 == 1 }) else { return nil }",
            "guard a else {",
        ] {
            #expect(StyleRewriter.negatedIf(line) == line, "\(line)")
        }
    }

    @Test func runsOfComparisonsInAConditionListTakeTheGenerationsOrder() {
        let line = "    guard depth >= 0, p >= 0, limit <= b.count, p < limit else { return nil }"
        var orders = Set<String>()
        for salt in 0..<UInt64(64) {
            let rewritten = StyleRewriter.reorderClauses(line, salt: salt)
            #expect(rewritten.hasPrefix("    guard "), "\(rewritten)")
            #expect(rewritten.hasSuffix(" else { return nil }"), "\(rewritten)")
            let clauses = rewritten.dropFirst(10).dropLast(20).split(separator: ", ").map(String.init)
            #expect(clauses.sorted() == ["depth >= 0", "limit <= b.count", "p < limit", "p >= 0"], "\(rewritten)")
            orders.insert(rewritten)
        }
        #expect(orders.count > 12, "64 salts gave only \(orders.count) of the 24 orders")
        // An `if`: the body stays after the list.
        let ifLine = "if q < limit, tag == 0x30 { return (tag, q) }"
        let ifOrders = Set((0..<UInt64(16)).map { StyleRewriter.reorderClauses(ifLine, salt: $0) })
        #expect(ifOrders == [ifLine, "if tag == 0x30, q < limit { return (tag, q) }"])
    }

    @Test func clausesThatCouldTrapOrBindKeepTheirPlace() {
        // Clauses that index, compute or bind split the runs: only `a < n` and `b != 0` (one run) may swap.
        let line = "guard let x = f(b), a < n, b != 0, c[a] == 1, p + 1 < e, d > 2 else { return nil }"
        let seen = Set((0..<UInt64(32)).map { StyleRewriter.reorderClauses(line, salt: $0) })
        #expect(seen == [line, "guard let x = f(b), b != 0, a < n, c[a] == 1, p + 1 < e, d > 2 else { return nil }"])
        for kept in [
            "guard a < n else { return nil }",  // nothing to reorder
            "guard a.contains(where: { $0 == 1 }), b < c else { return nil }",  // a closure
            "guard a,",  // a list on several lines
            "while a < n, b < m {",
            "let t = a < n",
        ] {
            for salt in 0..<UInt64(8) { #expect(StyleRewriter.reorderClauses(kept, salt: salt) == kept, "\(kept)") }
        }
    }

    @Test func emptinessInitializersUpdatesAndSlices() {
        #expect(StyleRewriter.countForEmpty("if path.isEmpty, signer >= 0 {") == "if path.count == 0, signer >= 0 {")
        #expect(StyleRewriter.countForEmpty("var e: UInt64 = path.isEmpty ? 1 : 0") == "var e: UInt64 = path.count == 0 ? 1 : 0")
        for line in ["if !path.isEmpty {", "let same = a.isEmpty == b", "guard x == y.isEmpty else { return }"] {
            #expect(StyleRewriter.countForEmpty(line) == line, "\(line)")
        }
        #expect(StyleRewriter.emptyInitializer("    var certs: [([UInt8], Int)] = []") == "    var certs = [([UInt8], Int)]()")
        #expect(StyleRewriter.emptyInitializer("    var n: Int = 0") == "    var n: Int = 0")
        #expect(StyleRewriter.expandUpdate("    bad |= f(a, b)") == "    bad = bad | (f(a, b))")
        #expect(StyleRewriter.expandUpdate("    h[0] &+= a") == "    h[0] = h[0] &+ a")
        #expect(StyleRewriter.expandUpdate("    x = y &+ 1") == "    x = y &+ 1")
        #expect(StyleRewriter.expandUpdate("    if x { y += 1 }") == "    if x { y += 1 }")
        #expect(StyleRewriter.typedSlices("let t = Array(c[s..<e]) + Array(repeating: 0, count: 2)") == "let t = [UInt8](c[s..<e]) + Array(repeating: 0, count: 2)")
        #expect(StyleRewriter.typedSlices("let t = ContiguousArray(c[0..<2])") == "let t = ContiguousArray(c[0..<2])")
    }
}
