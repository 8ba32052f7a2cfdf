import Foundation

/// Writes the statements of a template's tight loops (``DecoyWriter/tightMarker``: the big-number arithmetic's
/// multiply-accumulate loops, which take no decoys) in an order and a spelling of the generation's own, and moves the
/// statements of an unrolled block (``DecoyWriter/unrolledMarker``) a few places.
///
/// Those loops are where the arithmetic spends its time, and a decoy's branch there costs the loop its
/// add-with-carry; without decoys, what tells two generations' loops apart is this rewriter. In each loop body:
/// - the statements in a random order that keeps every dependency: a statement stays after the ones whose names it
///   reads (and before the ones that assign a name it reads), statements that touch the same array keep their order
///   when one of them stores into it, a statement reading the overflow flag of the one before it stays right after it
///   (the flag then needs no register), and the multiplications keep their written order (speed);
/// - each `let (a, b) = x.multipliedFullWidth(by: y)` and `let (s, o) = x.addingReportingOverflow(y)` with its operands
///   in either order, destructured with or without the tuple's type (on the pattern or as a cast) or as one value
///   read through `.high`/`.low`, `.partialValue`/`.overflow` by the statements that use it;
/// - two independent copies next to each other (`t0 = r0`, `t1 = r1`) maybe as one tuple assignment;
/// - each `v = a &+ b &+ c` with its terms in any order, two of them maybe grouped (wrapping addition is commutative
///   and associative), `v = v &+ x` maybe as `v &+= x`, and `j &+= 1` as `j = j &+ 1` or `j = 1 &+ j`;
/// - each carry word `flag(o)` called or written out.
///
/// This is diversity of the source, which ``DecoyWriter``'s decoys give everywhere else. The spelling leaves the
/// machine code's speed as it was (measured: within noise); the order does not always (hence the rules for flags and
/// products), and otherwise the loops compile much alike from one generation to the next. A body that does not read as
/// the templates write one (a statement it cannot analyse, a name it cannot follow) stays as written.
struct TightLoopRewriter {
    func rewrite(_ source: String, using random: inout SeededGenerator) -> String {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let taken = Set(Self.identifiers(in: source))
        var out: [String] = []
        var i = 0
        while i < lines.count {
            out.append(lines[i])
            let marker = lines[i].trimmingCharacters(in: .whitespaces)
            guard marker == DecoyWriter.tightMarker || marker == DecoyWriter.unrolledMarker, i + 1 < lines.count,
                lines[i + 1].hasSuffix("{")
            else {
                i += 1
                continue
            }
            out.append(lines[i + 1])
            let indent = lines[i + 1].prefix(while: { $0 == " " })
            var end = i + 2
            while end < lines.count, lines[end] != indent + "}" { end += 1 }
            let body = Array(lines[(i + 2)..<min(end, lines.count)])
            let window = marker == DecoyWriter.unrolledMarker ? Self.unrolledWindow : nil
            out.append(contentsOf: Self.body(body, taken: taken, window: window, using: &random) ?? body)
            i = end
        }
        return out.joined(separator: "\n")
    }

    // MARK: - One body

    private struct Statement {
        var text: String
        var defines: Set<String>
        var reads: Set<String>
        var stores: String?
        var arrays: Set<String>
        /// The flag an `addingReportingOverflow` statement defines.
        var overflow: String?
        /// A `multipliedFullWidth` statement.
        var multiplies: Bool
    }

    /// In an unrolled block (``DecoyWriter/unrolledMarker``), the next statement is drawn from the first this many that
    /// may come next in the written order. Why: with any order, the block's loads and state reads, all ready at the
    /// start, gather there, and two generations' runs of them matched in shape (the diversity gate failed a pair of its
    /// own seeds). Speed does not decide it: in a generation any order and the window ran alike. (On a stand-alone
    /// SHA-1 written loads and schedule first, the window was much faster than any order; the templates now write each
    /// word before its round.) The figures are in the ReceiptCodegen catalog's Measurements article.
    static let unrolledWindow = 4

    /// The body rewritten, or `nil` when a statement is not one this rewriter follows. With a `window`, each next
    /// unit is one of the first `window` ready ones in the written order; without, any ready one.
    private static func body(
        _ lines: [String],
        taken: Set<String>,
        window: Int?,
        using random: inout SeededGenerator
    ) -> [String]? {
        guard let first = lines.first else { return nil }
        let indent = String(first.prefix(while: { $0 == " " }))
        var statements: [Statement] = []
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(indent), !text.isEmpty, !text.hasPrefix("//"), !text.contains("{"), !text.contains("}"),
                let statement = Self.statement(text)
            else { return nil }
            statements.append(statement)
        }
        // Spelling: operands and terms in either order, tuples destructured or read through members.
        var renames: [String: String] = [:]
        var used = taken
        for index in statements.indices {
            var text = statements[index].text
            for (name, replacement) in renames {
                text = Self.replacing(name, with: replacement, in: text)
            }
            if let spelled = Self.spell(text, used: &used, renames: &renames, using: &random) { text = spelled }
            statements[index].text = Self.inliningFlags(in: text, using: &random)
        }
        // Units: a statement that reads the overflow flag of the statement just before it stays right after it, so the
        // flag goes straight into an add-with-carry. Anything between (a multiplication, another addition) sets the
        // flags again and the carry becomes a register first: measured, a generation whose entry points all use the
        // interleaved variant ran slower with its carries' sums anywhere (the ReceiptCodegen catalog's Measurements
        // article).
        var units: [[Int]] = []
        for k in statements.indices {
            if k > 0, let flag = statements[k - 1].overflow, statements[k].reads.contains(flag), var last = units.popLast() {
                last.append(k)
                units.append(last)
            } else {
                units.append([k])
            }
        }
        // Order: repeatedly one of the units whose predecessors are all placed.
        let count = units.count
        var before = [Set<Int>](repeating: [], count: count)
        for b in 0..<count {
            for a in 0..<b
            where units[a].contains(where: { x in units[b].contains { y in Self.mustPrecede(statements[x], statements[y]) } }) {
                before[b].insert(a)
            }
        }
        var placed: Set<Int> = []
        var order: [Int] = []
        while order.count < count {
            let ready = (0..<count).filter { !placed.contains($0) && before[$0].isSubset(of: placed) }
            guard !ready.isEmpty else { return nil }
            let next = random.element(window.map { Array(ready.prefix($0)) } ?? ready)
            placed.insert(next)
            order.append(next)
        }
        return Self.pairingCopies(order.flatMap { units[$0] }.map { statements[$0].text }, using: &random).map { indent + $0 }
    }

    /// Two copies next to each other (`t0 = r0`, `t1 = r1`: product scanning's accumulator words), independent of each
    /// other, maybe as one tuple assignment in either order: the same code, and a shape those few lines otherwise lack
    /// (two generations' loops ended in the same six lines when the copies could only be two lines).
    private static func pairingCopies(_ lines: [String], using random: inout SeededGenerator) -> [String] {
        func copy(_ line: String) -> (String, String)? {
            let sides = line.components(separatedBy: " = ")
            guard sides.count == 2, Self.isName(sides[0]),
                sides[1].split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ Self.isName(String($0)) })
            else { return nil }
            return (sides[0], sides[1])
        }
        var out: [String] = []
        var k = 0
        while k < lines.count {
            if k + 1 < lines.count, let a = copy(lines[k]), let b = copy(lines[k + 1]), a.0 != b.0,
                !Self.identifiers(in: b.1).contains(a.0), !Self.identifiers(in: a.1).contains(b.0), random.below(2) == 0
            {
                let (x, y) = random.below(2) == 0 ? (a, b) : (b, a)
                out.append("(\(x.0), \(y.0)) = (\(x.1), \(y.1))")
                k += 2
            } else {
                out.append(lines[k])
                k += 1
            }
        }
        return out
    }

    private static func mustPrecede(_ a: Statement, _ b: Statement) -> Bool {
        if !a.defines.isDisjoint(with: b.reads) || !a.reads.isDisjoint(with: b.defines) {
            return true
        }
        if !a.defines.isDisjoint(with: b.defines) { return true }
        // Products keep the order the template writes them in: an interleaved variant whose loop multiplies by the
        // modulus word first was markedly slower than with the signature word's product first (the order written),
        // whatever else moved (the ReceiptCodegen catalog's Measurements article).
        if a.multiplies && b.multiplies { return true }
        let shared = a.arrays.intersection(b.arrays)
        return shared.contains { $0 == a.stores || $0 == b.stores }
    }

    /// What a statement assigns, reads and stores into: `let (a, b) = …`, `let a = …`, `var a = …`, `a = …`,
    /// `a op= …` or `a[…] = …`.
    private static func statement(_ text: String) -> Statement? {
        guard let equals = Self.assignment(in: text) else { return nil }
        let left = String(text[..<equals.lowerBound]).trimmingCharacters(in: .whitespaces)
        let right = String(text[equals.upperBound...])
        var defines: Set<String> = []
        var reads = Set(Self.identifiers(in: right))
        var stores: String?
        var arrays = Self.subscripted(in: right)
        if left.hasPrefix("let ") || left.hasPrefix("var ") {
            var pattern = left.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "() "))
            // `let w: UInt32 = …`: the name before its type (a tuple's type is only ever added by this rewriter).
            if !left.dropFirst(4).hasPrefix("("), let colon = pattern.firstIndex(of: ":") { pattern = String(pattern[..<colon]) }
            defines = Set(pattern.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "_" })
            guard defines.allSatisfy(Self.isName) else { return nil }
        } else if let open = left.firstIndex(of: "["), left.hasSuffix("]") {
            let array = String(left[..<open])
            guard Self.isName(array) else { return nil }
            stores = array
            arrays.insert(array)
            reads.formUnion(Self.identifiers(in: String(left[left.index(after: open)...])))
        } else {
            let name = left.split(separator: " ").first.map(String.init) ?? ""
            guard Self.isName(name) else { return nil }
            defines = [name]
            if text[equals].count > 1 { reads.insert(name) }  // a compound assignment reads its target too
        }
        reads.subtract(Self.members)
        var overflow: String?
        if left.hasPrefix("let ("), right.contains(".addingReportingOverflow(") {
            overflow = left.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "() "))
                .split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return Statement(
            text: text, defines: defines, reads: reads, stores: stores, arrays: arrays, overflow: overflow,
            multiplies: right.contains(".multipliedFullWidth(")
        )
    }

    /// The statement's `=` (or compound assignment operator such as `&+=`), outside brackets and parentheses.
    private static func assignment(in text: String) -> Range<String.Index>? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c == "(" || c == "[" { depth += 1 }
            if c == ")" || c == "]" { depth -= 1 }
            if depth == 0, c == "=" {
                let next = text.index(after: index)
                let previous = index > text.startIndex ? text[text.index(before: index)] : " "
                guard next == text.endIndex || text[next] != "=", !"=!<>".contains(previous) else { return nil }
                var start = index
                while start > text.startIndex, "&+-*|^<>".contains(text[text.index(before: start)]) {
                    start = text.index(before: start)
                }
                return start..<next
            }
            index = text.index(after: index)
        }
        return nil
    }

    // MARK: - Spelling

    private static let members: Set<String> = [
        "multipliedFullWidth", "addingReportingOverflow", "by", "high", "low", "partialValue", "overflow",
    ]

    /// `text` in another spelling, recording in `renames` how later statements must read what it defines.
    private static func spell(
        _ text: String,
        used: inout Set<String>,
        renames: inout [String: String],
        using random: inout SeededGenerator
    ) -> String? {
        for (method, label, fields, type) in [
            ("multipliedFullWidth", "by: ", ("high", "low"), "(UInt64, UInt64)"),
            ("addingReportingOverflow", "", ("partialValue", "overflow"), "(UInt64, Bool)"),
        ] {
            guard text.hasPrefix("let ("), let close = text.firstIndex(of: ")"),
                let call = text.range(of: ".\(method)(\(label)"), text.hasSuffix(")")
            else { continue }
            let names = text[text.index(text.startIndex, offsetBy: 5)..<close].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let prefix = " = "
            guard names.count == 2, let equals = text.range(of: prefix), equals.upperBound <= call.lowerBound else { return nil }
            var x = String(text[equals.upperBound..<call.lowerBound])
            var y = String(text[call.upperBound..<text.index(before: text.endIndex)])
            if Self.isSimpleOperand(x), Self.isSimpleOperand(y), random.below(2) == 0 { swap(&x, &y) }
            let value = "\(x).\(method)(\(label)\(y))"
            switch names.allSatisfy({ Self.isName($0) && $0 != "_" }) ? random.below(4) : random.below(3) {
            case 0:
                return "let (\(names[0]), \(names[1])) = \(value)"
            case 1:
                return "let (\(names[0]), \(names[1])): \(type) = \(value)"
            case 2:
                return "let (\(names[0]), \(names[1])) = \(value) as \(type)"
            default:
                var whole = names[0] + names[1]
                while used.contains(whole) { whole += "_" }
                used.insert(whole)
                renames[names[0]] = "\(whole).\(fields.0)"
                renames[names[1]] = "\(whole).\(fields.1)"
                return "let \(whole) = \(value)"
            }
        }
        // `j &+= 1`, `j = j &+ 1` or `j = 1 &+ j`.
        if text.hasSuffix(" &+= 1"), let name = text.split(separator: " ").first.map(String.init), Self.isName(name),
            text == name + " &+= 1"
        {
            return random.element([text, "\(name) = \(name) &+ 1", "\(name) = 1 &+ \(name)"])
        }
        // `v = a &+ b &+ …`: the terms in any order.
        if let equals = text.range(of: " = "), Self.isName(String(text[..<equals.lowerBound])) {
            let terms = text[equals.upperBound...].components(separatedBy: " &+ ")
            guard terms.count > 1, terms.allSatisfy(Self.isTerm) else { return nil }
            // `v = v &+ x` maybe as `v &+= x`.
            let target = String(text[..<equals.lowerBound])
            if terms.count == 2, let other = terms.first(where: { $0 != target }), terms.contains(target), random.below(3) == 0 {
                return "\(target) &+= \(other)"
            }
            var shuffled = random.shuffled(terms)
            // Three or more terms: maybe two of them grouped, `a &+ (b &+ c)` or `(a &+ b) &+ c`.
            if shuffled.count > 2, random.below(3) > 0 {
                let at = random.below(shuffled.count - 1)
                shuffled.replaceSubrange(at...(at + 1), with: ["(\(shuffled[at]) &+ \(shuffled[at + 1]))"])
            }
            return String(text[..<equals.upperBound]) + shuffled.joined(separator: " &+ ")
        }
        return nil
    }

    /// The templates' carry words, `flag(o)` and `bit(o)` (`UInt64(unsafeBitCast(o, to: UInt8.self))`, branch-free),
    /// each called or written out at random: the same code once inlined, and a shape the other spellings lack (the
    /// loops' sums of carries otherwise read alike in every generation).
    private static func inliningFlags(in text: String, using random: inout SeededGenerator) -> String {
        var out = ""
        var rest = Substring(text)
        while let call = rest.range(of: #"\b(flag|bit)\(([A-Za-z_][A-Za-z0-9_.]*)\)"#, options: .regularExpression) {
            out += rest[..<call.lowerBound]
            let whole = rest[call]
            if random.below(2) == 0, let open = whole.firstIndex(of: "(") {
                out += "UInt64(unsafeBitCast(\(whole[whole.index(after: open)..<whole.index(before: whole.endIndex)]), to: UInt8.self))"
            } else {
                out += whole
            }
            rest = rest[call.upperBound...]
        }
        return out + rest
    }

    // MARK: - Tokens

    private static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// A name, a member, a number or one level of subscript: safe as a method's receiver.
    private static func isSimpleOperand(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        var depth = 0
        for c in text {
            if c == "[" { depth += 1 } else if c == "]" { depth -= 1 } else if depth == 0, !(c.isLetter || c.isNumber || c == "_" || c == ".") {
                return false
            }
        }
        return depth == 0 && text.filter({ $0 == "[" }).count <= 1
    }

    /// A term of a sum that needs no parentheses: a name, a member or a call on simple arguments (its parentheses
    /// balanced: a grouped sum split at its `&+` is not a term).
    private static func isTerm(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        var depth = 0
        for c in text {
            guard c.isLetter || c.isNumber || c == "_" || c == "." || c == "(" || c == ")" else { return false }
            depth += c == "(" ? 1 : (c == ")" ? -1 : 0)
            if depth < 0 { return false }
        }
        return depth == 0
    }

    /// A word of `text` (letters, digits, `_`) with what stands right before and after it.
    private struct Word {
        var text: Substring
        var afterDot: Bool
        var beforeBracket: Bool

        var isName: Bool { self.text.first.map { $0.isLetter || $0 == "_" } ?? false }
    }

    private static func words(in text: String) -> [Word] {
        var out: [Word] = []
        var index = text.startIndex
        var previous: Character = " "
        while index < text.endIndex {
            let c = text[index]
            guard c.isLetter || c.isNumber || c == "_" else {
                previous = c
                index = text.index(after: index)
                continue
            }
            let end = text[index...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? text.endIndex
            out.append(Word(text: text[index..<end], afterDot: previous == ".", beforeBracket: end < text.endIndex && text[end] == "["))
            previous = text[text.index(before: end)]
            index = end
        }
        return out
    }

    /// The names in `text` that are not members (`x.name` gives `x`) nor numbers.
    static func identifiers(in text: String) -> [String] {
        Self.words(in: text).filter { $0.isName && !$0.afterDot }.map { String($0.text) }
    }

    /// The names subscripted in `text` (`t[j]` gives `t`).
    private static func subscripted(in text: String) -> Set<String> {
        Set(Self.words(in: text).filter { $0.isName && $0.beforeBracket }.map { String($0.text) })
    }

    /// `text` with the whole-word name `name` replaced (not a member: `x.name` stays).
    private static func replacing(_ name: String, with replacement: String, in text: String) -> String {
        var out = ""
        var done = text.startIndex
        for word in Self.words(in: text) where word.text == name && !word.afterDot {
            out += text[done..<word.text.startIndex] + replacement
            done = word.text.endIndex
        }
        return out + text[done...]
    }
}
