import Foundation

/// Threads decoy code through a rendered piece of generated Swift, so that two generations share no run of lines even
/// where they drew the same variant of a primitive.
///
/// Before a statement it may bind a run-time value mixed with random constants and branch on an always-false
/// predicate of it, the arm leaving the function as bad input would (`let q: UInt64 = (n.count ^ 0x…) &+ 0x…` then
/// `if ((q | 1) &* (q | 1)) & 7 != 1 { return nil }`, or the `guard` of its negation); inside a condition list spread
/// over lines, an always-true `case let` clause. The values are the function's parameters and typed locals
/// (`.count` of an array, an integer) that no other declaration in the piece shadows. The predicates are the same
/// family as the entry points' opaque predicates: identities of integer arithmetic that the compiler does not prove,
/// so the arms stay in optimized code. Which predicates, mixing steps, spellings of a binding and of a run-time value,
/// and how often a `guard` rather than an `if`, the generation's ``Dialect`` says.
///
/// The writer reads the piece line by line with a small model of Swift's layout: it never inserts inside a multi-line
/// expression, a closure (nor any block within one), a `defer`, between a `switch` and its first `case`, or after a
/// `return`, `continue` or `break` in the same block. The templates keep to that layout (one statement a line or a
/// clean continuation). It drops the templates' `//` comments: the output explains nothing to its reader. A
/// ``hotMarker`` comment makes the decoys sparse in the block after it, a ``tightMarker`` or ``unrolledMarker``
/// comment leaves them out.
struct DecoyWriter {
    /// The chance in percent that an insertion point receives a decoy.
    var density: Int
    /// How this generation spells its decoys.
    var dialect: Dialect

    /// A template's comment line that makes the next block it opens (and every block inside it) hot: the loops that run
    /// per byte, per round or per word, and the DER reader, called once per element. There a place takes a decoy only
    /// after two to four lines without one (``hotGap``), enough to break every run of six lines; sparse decoys there
    /// cost a generation's validations far less than the usual density (the ReceiptCodegen catalog's Measurements
    /// article).
    static let hotMarker = "// hot"

    /// A template's comment line that makes the next block it opens (and every block inside it) take no decoys: the
    /// multiply-accumulate loops of the big-number arithmetic, where a decoy's branch, however sparse, costs the loop
    /// its add-with-carry (the optimizer sinks a carry's use below the branch, and the flag becomes a register).
    /// Measured in generated files, removing the decoys from those loops made every variant's validations faster than
    /// keeping them everywhere, only at the top of each turn, or only after a carry's use (the ReceiptCodegen catalog's
    /// Measurements article). Two generations' tight loops differ by ``TightLoopRewriter``.
    static let tightMarker = "// tight"

    /// A template's comment line before an unrolled block (``SHA1Rounds``): no decoys, as after ``tightMarker``, and
    /// ``TightLoopRewriter`` moves its statements only a few places from where they were written (the block was
    /// spelled for its generation already).
    static let unrolledMarker = "// unrolled"

    /// In a hot block, how many lines may go by without a decoy before a place takes one (drawn at each place, so
    /// that two generations put them in different places).
    static let hotGap = 2...4

    private enum ScopeKind {
        case function(returns: String)
        case block
        case switchBody
        case closed
    }

    private struct Scope {
        var kind: ScopeKind
        var values: [String] = []
        var exited = false
        var seenCase = false
        var heat = Heat.normal
    }

    /// How many decoys a block takes, from a marker before it or from the block around it (the hotter wins).
    private enum Heat: Int, Comparable {
        case normal, hot, tight

        static func < (a: Heat, b: Heat) -> Bool { a.rawValue < b.rawValue }
    }

    func write(_ source: String, using random: inout SeededGenerator) -> String {
        let tokens = Self.tokens(source)
        let once = Self.namesDeclaredOnce(in: tokens)
        var out: [String] = []
        var scopes: [Scope] = []
        var depth = 0
        var head: String?
        var lastWasCompleteCode = false
        var lastEndsClause = false
        var skipped = false
        var marked = Heat.normal  // a marker's, for the next block opened
        var quiet = 0
        var names = Names(taken: Set(tokens))

        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//"), !trimmed.hasPrefix("///") {
                if trimmed == Self.hotMarker { marked = max(marked, .hot) }
                if trimmed == Self.tightMarker || trimmed == Self.unrolledMarker { marked = .tight }
                continue  // a template's comment would tell a reader what the code around it is
            }
            if trimmed.isEmpty || trimmed.hasPrefix("///") {
                out.append(line)
                continue
            }
            let indent = String(line.prefix(while: { $0 == " " }))
            let heat = scopes.last?.heat ?? .normal
            let values = Self.usable(scopes.flatMap(\.values), hot: heat >= .hot)

            // A decoy before this line? Never two places in a row without one, nor a function's first place, and
            // always one before a tight or unrolled block: the few lines of a loop's head, spelled alike everywhere,
            // would otherwise join the first lines of its body in a run two generations share.
            func taken() -> Bool {
                if heat >= .hot {
                    // Sparse in a hot block: just often enough that no six lines go by as the template wrote them.
                    let gap = random.pick(Self.hotGap)
                    skipped = marked != .tight && quiet < gap
                } else {
                    skipped = marked != .tight && !skipped && random.below(100) >= self.density
                }
                if !skipped { quiet = 0 }
                return !skipped
            }
            if depth == 0, let scope = scopes.last, heat < .tight, !values.isEmpty, !scopes.contains(where: Self.isClosure) {
                if head == nil, lastWasCompleteCode, !scope.exited, Self.startsStatement(trimmed), Self.insertable(scope),
                    let exit = Self.exitStatement(scopes: scopes, using: &random)
                {
                    if taken() {
                        let lines = self.branch(values: values, exit: exit, names: &names, using: &random)
                        out.append(contentsOf: lines.map { indent + $0 })
                    }
                } else if let open = head, lastEndsClause, Self.isConditionHead(open), !trimmed.hasPrefix("else"),
                    !trimmed.hasPrefix("{"), taken()
                {
                    out.append(indent + self.clause(values: values, names: &names, using: &random))
                }
            }
            out.append(line)
            quiet += 1  // lines since the last decoy

            // What the line does to the scopes and to the statement in progress.
            let code = Self.stripComment(trimmed)
            let statement = (head ?? "") + " " + code
            for (offset, character) in code.enumerated() {
                switch character {
                case "(", "[": depth += 1
                case ")", "]": depth -= 1
                case "{":
                    let trailing = offset == code.count - 1
                    let inherited = max(marked, scopes.last?.heat ?? .normal)
                    scopes.append(Scope(kind: trailing ? Self.kind(opening: statement) : .closed, heat: inherited))
                    marked = .normal
                case "}":
                    if !scopes.isEmpty { scopes.removeLast() }
                default: break
                }
            }
            if code.hasPrefix("case ") || code.hasPrefix("default:"), code.hasSuffix(":"), !scopes.isEmpty {
                scopes[scopes.count - 1].seenCase = true
                scopes[scopes.count - 1].exited = false
                head = nil
                lastWasCompleteCode = true
                lastEndsClause = false
                continue
            }
            let complete = depth == 0 && !Self.continues(code) && !(Self.isControlHead(statement) && !code.contains("{"))
            lastEndsClause = code.hasSuffix(",")
            if complete {
                let first = head ?? code
                head = nil
                lastWasCompleteCode = !code.hasPrefix("@") && !code.hasPrefix("#")
                if !code.hasSuffix("{"), !scopes.isEmpty {
                    for word in ["return", "continue", "break", "throw", "exit("] where first.hasPrefix(word) {
                        scopes[scopes.count - 1].exited = true
                    }
                    if let value = self.typedValue(first, once: once) { scopes[scopes.count - 1].values.append(value) }
                }
                if code.hasSuffix("{"), case .function = scopes.last?.kind {
                    scopes[scopes.count - 1].values = self.parameters(statement, once: once)
                    skipped = true  // every function opens with a decoy
                }
            } else {
                head = head.map { $0 + " " + code } ?? code
                lastWasCompleteCode = false
            }
        }
        return out.joined(separator: "\n")
    }

    // MARK: - The decoys

    /// The values a decoy may read here. In a hot block, only the `UInt64` locals and parameters when there are any: a
    /// count is read from its array's memory, and a store through a pointer in the loop may have changed it as far as
    /// the optimizer knows, so a decoy on a count is computed again at every turn (three multiplications for a fourth
    /// power), while one on a local is the same every turn and leaves the loop. Measured on one generation's FIOS
    /// function, hot decoys on counts made it far slower, the same decoys on a register value only a little slower than
    /// none (the ReceiptCodegen catalog's Measurements article). (A decoy that falls between a carry and its use can
    /// still cost the loop its add-with-carry.) Integers that are not `UInt64` (an offset, a length) are not used
    /// there: the optimizer often knows their low bits (an offset `64 * n`), and with them a predicate's answer.
    static func usable(_ values: [String], hot: Bool) -> [String] {
        guard hot else { return values }
        let locals = values.filter { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
        return locals.isEmpty ? values : locals
    }

    /// `let name: UInt64 = operand` (or `let name = operand as UInt64`) and a branch on it (the binding keeps the type
    /// checker fast: an operand repeated inside one long literal-laden expression slows it down at each use; see the
    /// ReceiptCodegen catalog's Measurements article).
    private func branch(values: [String], exit: String, names: inout Names, using random: inout SeededGenerator) -> [String] {
        let x = names.fresh(using: &random)
        let form = random.element(self.dialect.predicates)
        let operand = Self.bound(Self.operand(values: values, dialect: self.dialect, using: &random), form)
        let binding = self.dialect.castBinding ? "let \(x) = \(operand) as UInt64" : "let \(x): UInt64 = \(operand)"
        if random.below(100) >= self.dialect.guardPercent {
            return [binding, "if \(Self.predicate(false, x, form: form, bound: true, using: &random)) { \(exit) }"]
        }
        return [binding, "guard \(Self.predicate(true, x, form: form, bound: true, using: &random)) else { \(exit) }"]
    }

    /// `case let name = operand, predicate(name),` — two always-true clauses for a condition list.
    private func clause(values: [String], names: inout Names, using random: inout SeededGenerator) -> String {
        let x = names.fresh(using: &random)
        let form = random.element(self.dialect.predicates)
        let operand = Self.bound(Self.operand(values: values, dialect: self.dialect, using: &random), form)
        return "case let \(x) = \(operand), \(Self.predicate(true, x, form: form, bound: true, using: &random)),"
    }

    /// The operand made odd by the binding, for a predicate that leaves that to it.
    private static func bound(_ operand: String, _ form: Dialect.Predicate) -> String {
        form.odd == 2 ? "(\(operand) | 1)" : operand
    }

    /// An identity of 64-bit wrapping arithmetic on a run-time value `x` that the optimizer does not prove, in one of
    /// the dialect's spellings: an odd square is 1 modulo 8 (`(x|1)² - 1` a multiple of 8), an odd fourth power 1
    /// modulo 16, an odd cube equal to its root modulo 8. (The parity of `x(x+1)` is as true, but LLVM's demanded-bits
    /// analysis sees through it and deletes the arm; `(2x+1)²` and `x << 1 | 1` slow the type checker down at every
    /// use; see the ReceiptCodegen catalog's Measurements article.)
    static func predicate(_ truth: Bool, _ x: String, dialect: Dialect, using random: inout SeededGenerator) -> String {
        Self.predicate(truth, x, form: random.element(dialect.predicates), bound: false, using: &random)
    }

    /// The predicate in `form`; `bound`: `x` is odd already (its binding ended in `| 1`, ``Dialect/Predicate/odd``).
    ///
    /// Every spelling leaves the optimizer the same knowledge: the low bit of the odd value, the second bit of its
    /// square (LLVM knows a square's bit 1 is 0), nothing above; the residue taken away by `^ c` or `&- c` keeps
    /// the bit tested unknown. (The odd value's residue modulo 8 or 16 is what it cannot know, and the identity
    /// needs.)
    static func predicate(
        _ truth: Bool, _ x: String, form: Dialect.Predicate, bound: Bool, using random: inout SeededGenerator
    ) -> String {
        let odd: String
        switch form.odd {
        case 1: odd = "(1 | \(x))"
        case 2 where bound: odd = x
        default: odd = "(\(x) | 1)"
        }
        let relation = truth ? "==" : "!="
        let bits = form.identity == 2 ? 16 : 8
        func compare(_ value: String, _ constant: String) -> String {
            form.constantFirst ? "\(constant) \(relation) \(value)" : "\(value) \(relation) \(constant)"
        }
        /// `value` tested against `residue` modulo `bits`, masked or as a remainder; or, in the third form, `value`
        /// with the residue taken away (`away`, or `value` as it is when it has that built in) masked against 0.
        /// (Callers draw `away`'s constant only for the third form: a draw nothing prints would shift the seed's
        /// stream for nothing.)
        func test(_ value: String, residue: String, away: String?) -> String {
            switch form.test {
            case 1: return compare("(\(value)) % \(bits)", residue)
            case 2: return compare("(\(away.map { "\(value) \($0)" } ?? value)) & \(bits - 1)", "0")
            default: return compare("(\(value)) & \(bits - 1)", residue)
            }
        }
        /// A random 64-bit constant whose residue modulo `bits` is 1: the bits the test reads are the identity's,
        /// the others noise.
        func one() -> String {
            "0x" + String((random.next() & ~UInt64(bits - 1)) | 1, radix: 16)
        }
        let square = "\(odd) &* \(odd)"
        switch form.identity {
        case 0:
            return test(square, residue: "1", away: form.test == 2 ? "^ \(one())" : nil)
        case 1:
            // The square less one (in the third form, less a constant of residue 1) is a multiple of 8.
            return test("\(square) &- \(form.test == 2 ? one() : "1")", residue: "0", away: nil)
        case 2:
            let fourth = form.grouped ? "(\(square)) &* (\(square))" : "\(square) &* \(square)"
            return test(fourth, residue: "1", away: form.test == 2 ? "^ \(one())" : nil)
        default:
            let cube = form.grouped ? "\(odd) &* (\(square))" : "\(square) &* \(odd)"
            return test(cube, residue: form.test == 1 ? "\(odd) % 8" : "\(odd) & 7", away: "^ \(odd)")
        }
    }

    /// A run-time value mixed with constants and other values (in parentheses) by the dialect's mixers, then shifted
    /// right by the dialect's spelling of a shift.
    ///
    /// The predicates read only the low three or four bits of their operand, and the optimizer knows it: it drops any
    /// step that cannot change those bits (`^ 0x…0`, `&- 0x…8`, a value xored in twice), and when two decoys in one
    /// function are left testing the same bits of the same values, the second is implied by the first and deleted
    /// (measured: decoy exits gone from a generation whose dialect had few mixers; the ReceiptCodegen catalog's
    /// Measurements article has the count). So every operand takes at least one constant, never the same value twice,
    /// and ends with a shift that brings bits above the low ones down, where a constant's carries reach.
    private static func operand(values: [String], dialect: Dialect, using random: inout SeededGenerator) -> String {
        let first = random.element(values)
        var unused = values.filter { $0 != first }
        var x = first
        var hasConstant = false
        var shifted = false
        func step(_ mixer: Int) {
            let bits = random.next() >> UInt64(random.pick(0...40))
            let constant = "0x" + String(bits, radix: 16)
            // The predicates read the low three bits: a multiplier with a low zero bit or an `|` with a low one bit
            // makes some of them known, and the optimizer proves the predicate (measured: such arms vanish at -O).
            let odd = "0x" + String(bits | 1, radix: 16)
            let highOnly = "0x" + String(bits & ~7, radix: 16)
            // Either side of a commutative operator, as the dialect writes it.
            func mix(_ a: String, _ op: String, _ b: String) -> String {
                dialect.valueFirst[mixer] ? "(\(a) \(op) \(b))" : "(\(b) \(op) \(a))"
            }
            shifted = mixer == 4
            hasConstant = hasConstant || !(mixer == 4 || (mixer == 6 && !unused.isEmpty))
            switch mixer {
            case 0: x = mix(x, "&+", constant)
            case 1: x = mix(x, "^", constant)
            case 2: x = mix(x, "&*", odd)
            case 3: x = mix(x, "|", highOnly)
            case 4: x = "(\(x) >> \(random.pick(1...9)))"
            case 5: x = "(\(x) &- \(constant))"
            default:
                if unused.isEmpty {
                    x = mix(x, "&+", constant)
                } else {
                    let other = random.element(unused)
                    unused.removeAll { $0 == other }
                    x = mix(x, "^", other)
                }
            }
        }
        for _ in 0..<random.pick(dialect.steps) { step(random.element(dialect.mixers)) }
        if !hasConstant {
            // A dialect draws at least four of the seven mixers, so at least two of those with a constant.
            let withConstants = dialect.mixers.filter { $0 != 4 && $0 != 6 }
            step(withConstants.isEmpty ? 0 : random.element(withConstants))
        }
        if !shifted {
            let k = random.pick(3...24)
            switch dialect.shift {
            case 0: x = "(\(x) >> \(k))"
            case 1: x = "(\(x) &>> \(k))"
            default: x = "(\(x) / 0x\(String(UInt64(1) << UInt64(k), radix: 16)))"
            }
        }
        return x
    }

    /// How the innermost function leaves on bad input, or `nil` when its result type has no such value.
    private static func exitStatement(scopes: [Scope], using random: inout SeededGenerator) -> String? {
        for scope in scopes.reversed() {
            guard case .function(let returns) = scope.kind else { continue }
            if returns.isEmpty { return "return" }
            if returns.hasSuffix("?") { return "return nil" }
            switch returns {
            case "UInt64": return "return 0x\(String(random.next() | 1, radix: 16))"
            case "Int", "Int64": return "return -\(random.pick(1...9_999))"
            case "Bool": return "return false"
            case "[UInt8]", "[UInt32]", "[UInt64]", "[[UInt8]]": return "return []"
            case "[Bool]": return "return [false]"
            default: return nil
            }
        }
        return nil
    }

    /// Names for the decoys' bindings: random, in no other use in the piece, a lowercase letter then at least one
    /// capital (which no Swift keyword or lowercase standard-library function has).
    private struct Names {
        var taken: Set<String>

        mutating func fresh(using random: inout SeededGenerator) -> String {
            let lower = Array("abcdefghijklmnopqrstuvwxyz")
            let upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            while true {
                var name = String(random.element(lower))
                for _ in 0..<random.pick(1...6) { name.append(random.element(random.below(2) == 0 ? lower : upper)) }
                name.append(random.element(upper))
                if self.taken.insert(name).inserted { return name }
            }
        }
    }

    // MARK: - Reading the layout

    /// A closure or another scope the writer does not read: nothing goes inside it, at any depth (the big-number
    /// arithmetic runs in one, where a branch a word would cost more than the arithmetic).
    private static func isClosure(_ scope: Scope) -> Bool {
        if case .closed = scope.kind { return true }
        return false
    }

    private static func insertable(_ scope: Scope) -> Bool {
        switch scope.kind {
        case .function, .block: return true
        case .switchBody: return scope.seenCase
        case .closed: return false
        }
    }

    private static func kind(opening statement: String) -> ScopeKind {
        let s = statement.trimmingCharacters(in: .whitespaces)
        if let function = s.range(of: "func ") {
            let before = s[..<function.lowerBound]
            if before.allSatisfy({ $0.isLetter || $0 == " " || $0 == "@" }) {
                return .function(returns: Self.returnType(s))
            }
        }
        for word in ["if ", "guard ", "for ", "while ", "repeat ", "do ", "} else", "else "] where s.hasPrefix(word) {
            return .block
        }
        if s.hasPrefix("switch ") { return .switchBody }
        return .closed
    }

    private static func returnType(_ signature: String) -> String {
        guard let arrow = signature.range(of: ") -> ", options: .backwards) else { return "" }
        var result = String(signature[arrow.upperBound...])
        if result.hasSuffix("{") { result.removeLast() }
        return result.trimmingCharacters(in: .whitespaces)
    }

    private static func isConditionHead(_ head: String) -> Bool {
        head.hasPrefix("guard ") || head.hasPrefix("if ") || head.hasPrefix("while ")
    }

    private static func isControlHead(_ statement: String) -> Bool {
        let s = statement.trimmingCharacters(in: .whitespaces)
        return ["guard ", "if ", "while ", "for ", "switch ", "} else if "].contains { s.hasPrefix($0) }
    }

    private static func startsStatement(_ line: String) -> Bool {
        let refused = ["}", ")", "]", ".", "else", "case ", "default", "where", "&&", "||", "?", ":", "#", "@", "{", "+", "-",
            "*", "/", "&", "|", "^", "=", "<", ">", "!", "in "]
        return !refused.contains { line.hasPrefix($0) }
    }

    /// True when a line leaves its statement open: a trailing operator, comma, colon or `in`.
    private static func continues(_ code: String) -> Bool {
        guard let last = code.last else { return false }
        // `var found: [UInt8]?` is whole; `…)?` before `.member` on the next line is not.
        if last == "?", code.hasPrefix("var ") || code.hasPrefix("let "), code.contains(":"), !code.contains("=") {
            return false
        }
        if ",=([+-*/&|^<>!?:.".contains(last) { return true }
        return code.hasSuffix(" in") || code == "in"
    }

    private static func stripComment(_ line: String) -> String {
        guard let comment = line.range(of: " //") else { return line }
        return String(line[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces)
    }

    private static let integers: Set<String> = ["Int", "Int64", "Int32", "UInt", "UInt64", "UInt32", "UInt16", "UInt8"]
    private static let arrays: Set<String> = ["[UInt8]", "[UInt32]", "[UInt64]", "[[UInt8]]", "[Int]", "ArraySlice<UInt8>"]

    /// A run-time `UInt64` made of a value of `type`, or `nil` when the type has none here.
    private func value(_ name: String, type: String, once: Set<String>) -> String? {
        guard once.contains(name) else { return nil }
        if Self.arrays.contains(type) {
            // A count is never negative: `UInt64(_:)` cannot trap on it.
            return self.dialect.plainCount ? "UInt64(\(name).count)" : self.wide("\(name).count")
        }
        if type == "UInt64" { return name }
        if type == "Int" { return self.wide(name) }
        if Self.integers.contains(type) { return "UInt64(truncatingIfNeeded: \(name))" }
        return nil
    }

    /// An `Int` as a `UInt64`, in the dialect's spelling.
    private func wide(_ value: String) -> String {
        switch self.dialect.intSpelling {
        case 1: return "UInt64(UInt(bitPattern: \(value)))"
        case 2: return "UInt64(bitPattern: Int64(\(value)))"
        default: return "UInt64(truncatingIfNeeded: \(value))"
        }
    }

    /// `let name: Type = …` / `var name: Type = …`.
    private func typedValue(_ statement: String, once: Set<String>) -> String? {
        let words = statement.split(separator: " ", maxSplits: 3).map(String.init)
        guard words.count == 4, words[0] == "let" || words[0] == "var", words[1].hasSuffix(":"), words[3].hasPrefix("=") else {
            return nil
        }
        // A literal initializer is a value the compiler knows right after the declaration, and a predicate on it one
        // it proves ("will never be executed").
        guard words[3].split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains(where: { word in
            word.first?.isLetter == true
        }) else { return nil }
        // An integer that is a choice between literals (`flag ? 1 : 0`) or a `var` (later set to one, `flag = 1`) has
        // two values: the optimizer folds a predicate into each and deletes the arm. Measured: a decoy on `expired`
        // (`var expired: UInt64 = path.isEmpty ? 1 : 0`) vanished from the -O machine code, and took an entry point's
        // dead arm with it.
        if !Self.arrays.contains(words[2]), words[0] == "var" || words[3].contains(" ? ") { return nil }
        return self.value(String(words[1].dropLast()), type: words[2], once: once)
    }

    /// The usable parameters of a function signature (`_ name: Type` or `label name: Type`).
    private func parameters(_ signature: String, once: Set<String>) -> [String] {
        guard let open = signature.firstIndex(of: "(") else { return [] }
        var list = ""
        var level = 0
        for character in signature[open...] {
            if character == "(" { level += 1 }
            if character == ")" { level -= 1 }
            if level == 0 { break }
            list.append(character)
        }
        var found: [String] = []
        var piece = ""
        for character in list.dropFirst() + "," {
            switch character {
            case "(", "[": level += 1
            case ")", "]": level -= 1
            default: break
            }
            if character == ",", level == 0 {
                let parts = piece.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, let name = parts[0].split(separator: " ").last,
                    let v = self.value(String(name), type: parts[1], once: once)
                {
                    found.append(v)
                }
                piece = ""
            } else {
                piece.append(character)
            }
        }
        return found
    }

    /// Names declared exactly once in the piece (by `let`, `var`, `for`, a parameter or a closure), the only ones a
    /// decoy may read: a second declaration anywhere could shadow it, or be a later declaration Swift refuses a use
    /// before.
    private static func namesDeclaredOnce(in tokens: [String]) -> Set<String> {
        var counts: [String: Int] = [:]
        var i = 0
        func declare(_ name: String) { counts[name, default: 0] += 1 }
        while i < tokens.count {
            let t = tokens[i]
            if t == "let" || t == "var" || t == "for" {
                if i + 1 < tokens.count, tokens[i + 1] == "(" {
                    var j = i + 2
                    while j < tokens.count, tokens[j] != ")" {
                        if tokens[j].first?.isLetter == true { declare(tokens[j]) }
                        j += 1
                    }
                } else if i + 1 < tokens.count {
                    declare(tokens[i + 1])
                }
            } else if t == ":", i >= 1, tokens[i - 1].first?.isLetter == true || tokens[i - 1].first == "_",
                i < 2 || (tokens[i - 2] != "let" && tokens[i - 2] != "var")
            {
                // `_ name:` / `label name:` in a signature, or a tuple label — either way a name not to trust.
                declare(tokens[i - 1])
            } else if t == "in", i >= 1, tokens[i - 1].first?.isLetter == true {
                declare(tokens[i - 1])
            }
            i += 1
        }
        return Set(counts.filter { $0.value == 1 }.keys)
    }

    private static func tokens(_ source: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in source {
            if character.isLetter || character.isNumber || character == "_" || character == "$" {
                word.append(character)
            } else {
                if !word.isEmpty { tokens.append(word) }
                word = ""
                if !character.isWhitespace { tokens.append(String(character)) }
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }
}
