import Foundation

/// Rewrites a rendered piece in the spelling its generation's ``Dialect`` chose: the same program, other tokens.
///
/// Every rewrite is local and keeps the meaning, and each applies only where it is sure to (otherwise the line stays
/// as written):
/// - a comparison of two simple operands (names, members, tuple fields, one level of subscript, numbers) mirrored,
///   `t.0 == 0x30` as `0x30 == t.0`, `i < n` as `n > i` — only when both neighbours bind looser than a comparison
///   (a line's start, `(`, `,`, `guard`, `if`, `where`, `return`, `&&`, `||`, `=`, `?` … on the left; a line's end,
///   `)`, `,`, `{`, `&&`, `||`, `?`, `else` on the right);
/// - a `guard` whose conditions stand on several lines as one `guard` a line, each with the same one-line `else`
///   (the bindings of a condition list stay in scope after it either way);
/// - a one-line `guard` without bindings or a list as `if !(…) { … }`;
/// - `a.isEmpty` as `a.count == 0` (not after `!` nor beside another comparison);
/// - `var a: [T] = []` as `var a = [T]()`;
/// - `x += e` (and `-`, `|`, `^`, `&`, `&+`, `&-`, `&*`, `<<`, `>>`) as `x = x + (e)`;
/// - `Array(b[…])` as `[UInt8](b[…])` (the templates slice only byte arrays this way);
/// - in the condition list of a one-line `guard … else { … }` or `if … {`, each run of clauses that are comparisons
///   of two simple operands without a subscript (`p >= 0, limit <= b.count, p < limit`) in the generation's order:
///   such a clause cannot trap nor bind, so the run holds in any order, and the clauses around it stay where they
///   were (one before the run may bind a name it reads; one after may index what the run bounds).
///
/// It reads one line at a time and expects the templates' layout (one statement a line or a clean continuation), as
/// ``DecoyWriter`` does; it runs before the decoys are written.
struct StyleRewriter {
    var dialect: Dialect

    func rewrite(_ source: String) -> String {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if self.dialect.splitGuards { lines = Self.splitGuards(lines) }
        return lines.map { line in
            // Comments and documentation stay as written.
            guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return line }
            var line = Self.reorderClauses(line, salt: self.dialect.clauseOrder)
            if self.dialect.negatedIfs { line = Self.negatedIf(line) }
            if self.dialect.emptyInitializer { line = Self.emptyInitializer(line) }
            if self.dialect.expandUpdates { line = Self.expandUpdate(line) }
            if self.dialect.countForEmpty { line = Self.countForEmpty(line) }
            if self.dialect.mirrorComparisons { line = Self.mirrorComparisons(line) }
            if self.dialect.typedSlices { line = Self.typedSlices(line) }
            return line
        }.joined(separator: "\n")
    }

    // MARK: - Operands

    private static func isOperandCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "."
    }

    /// The simple operand ending just before `end` (names, members, tuple fields, one level of subscript), or `nil`.
    private static func operand(before end: Int, in c: [Character]) -> Int? {
        var i = end
        while i > 0 {
            let p = c[i - 1]
            if Self.isOperandCharacter(p) {
                i -= 1
            } else if p == "]" {
                // One level of subscript: `a[i]`, not `a[b[i]]`.
                var j = i - 2
                while j >= 0, c[j] != "[", c[j] != "]" { j -= 1 }
                guard j > 0, c[j] == "[", Self.isOperandCharacter(c[j - 1]) else { return nil }
                i = j
            } else {
                break
            }
        }
        guard i < end, c[i] != ".", c[end - 1] != "." else { return nil }
        return i
    }

    /// The simple operand starting at `start`: the index just after it, or `nil`.
    private static func operand(after start: Int, in c: [Character]) -> Int? {
        var i = start
        while i < c.count {
            if Self.isOperandCharacter(c[i]) {
                i += 1
            } else if c[i] == "[", i > start {
                var j = i + 1
                while j < c.count, c[j] != "]", c[j] != "[" { j += 1 }
                guard j < c.count, c[j] == "]" else { return nil }
                i = j + 1
            } else {
                break
            }
        }
        guard i > start, c[start] != ".", c[i - 1] != "." else { return nil }
        return i
    }

    /// Whether the code before an operand binds looser than a comparison.
    private static func looseBefore(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t.hasSuffix("(") || t.hasSuffix(",") || t.hasSuffix("&&") || t.hasSuffix("||") || t.hasSuffix("?")
            || t.hasSuffix("{")
        {
            return true
        }
        if t.hasSuffix("=") {
            // Assignment, not `==`, `!=`, `<=`, `>=`.
            let before = t.dropLast().last
            return before == " "
        }
        if t.hasSuffix(":") { return t.dropLast().last?.isLetter ?? false }
        for word in ["guard", "if", "while", "where", "return"] where t == word || t.hasSuffix(" " + word) {
            return true
        }
        return false
    }

    /// Whether the code after an operand binds looser than a comparison.
    private static func looseAfter(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return true }
        for start in [")", ",", "{", "&&", "||", "? ", "else"] where t.hasPrefix(start) { return true }
        return false
    }

    // MARK: - The rewrites

    private static let mirrored: [String: String] = ["==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="]

    static func mirrorComparisons(_ line: String) -> String {
        var c = Array(line)
        var i = 0
        while i < c.count {
            guard c[i] == " " else {
                i += 1
                continue
            }
            // ` op ` at i.
            var j = i + 1
            while j < c.count, "=!<>".contains(c[j]) { j += 1 }
            guard j < c.count, c[j] == " ", let mirror = Self.mirrored[String(c[(i + 1)..<j])],
                let leftStart = Self.operand(before: i, in: c), let rightEnd = Self.operand(after: j + 1, in: c),
                Self.looseBefore(String(c[..<leftStart])), Self.looseAfter(String(c[rightEnd...]))
            else {
                i += 1
                continue
            }
            let left = c[leftStart..<i]
            let right = c[(j + 1)..<rightEnd]
            let swapped = Array(right) + Array(" \(mirror) ") + Array(left)
            c.replaceSubrange(leftStart..<rightEnd, with: swapped)
            i = leftStart + swapped.count
        }
        return String(c)
    }

    static func countForEmpty(_ line: String) -> String {
        var c = Array(line)
        let word = Array(".isEmpty")
        var i = 0
        while i + word.count <= c.count {
            guard Array(c[i..<(i + word.count)]) == word,
                i + word.count == c.count || !(c[i + word.count].isLetter || c[i + word.count].isNumber),
                let start = Self.operand(before: i, in: c)
            else {
                i += 1
                continue
            }
            let before = String(c[..<start]).trimmingCharacters(in: .whitespaces)
            let after = String(c[(i + word.count)...]).trimmingCharacters(in: .whitespaces)
            let comparison = ["==", "!=", "<", ">", "!"]
            guard !comparison.contains(where: { before.hasSuffix($0) }),
                !["==", "!=", "<", ">"].contains(where: { after.hasPrefix($0) })
            else {
                i += 1
                continue
            }
            let replacement = Array(".count == 0")
            c.replaceSubrange(i..<(i + word.count), with: replacement)
            i += replacement.count
        }
        return String(c)
    }

    static func negatedIf(_ line: String) -> String {
        let indent = String(line.prefix { $0 == " " })
        let code = line.dropFirst(indent.count)
        guard code.hasPrefix("guard "), code.hasSuffix("}"), let split = code.range(of: " else { "),
            code.components(separatedBy: " else ").count == 2
        else { return line }
        let condition = code[code.index(code.startIndex, offsetBy: 6)..<split.lowerBound]
        let body = code[split.upperBound...]
        guard !condition.hasPrefix("let "), !condition.hasPrefix("var "), !condition.hasPrefix("case "),
            !condition.contains("{"), !body.contains("{")
        else { return line }
        // A list (a comma at depth 0) may bind; leave it.
        var depth = 0
        for c in condition {
            if c == "(" || c == "[" { depth += 1 }
            if c == ")" || c == "]" { depth -= 1 }
            if c == ",", depth == 0 { return line }
        }
        return indent + "if !(\(condition)) { " + body
    }

    static func emptyInitializer(_ line: String) -> String {
        let indent = String(line.prefix { $0 == " " })
        let code = line.dropFirst(indent.count)
        guard code.hasPrefix("var ") || code.hasPrefix("let "), code.hasSuffix("] = []"),
            let colon = code.firstIndex(of: ":")
        else { return line }
        let name = code[code.index(code.startIndex, offsetBy: 4)..<colon]
        let type = code[code.index(after: colon)..<code.index(code.endIndex, offsetBy: -5)].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), type.hasPrefix("["),
            type.hasSuffix("]")
        else { return line }
        return indent + code.prefix(4) + name + " = " + type + "()"
    }

    static func expandUpdate(_ line: String) -> String {
        let indent = String(line.prefix { $0 == " " })
        let code = String(line.dropFirst(indent.count))
        guard !code.contains("//"), let space = code.firstIndex(of: " ") else { return line }
        let target = String(code[..<space])
        let rest = code[code.index(after: space)...]
        guard let equals = rest.range(of: "= "), let first = target.first, first.isLetter else { return line }
        let op = String(rest[..<equals.lowerBound])
        let value = String(rest[equals.upperBound...])
        let chars = Array(target)
        guard ["+", "-", "|", "^", "&", "&+", "&-", "&*", "<<", ">>"].contains(op),
            Self.operand(after: 0, in: chars) == chars.count, !value.isEmpty, !value.hasSuffix("{")
        else { return line }
        let valueChars = Array(value)
        let simple = Self.operand(after: 0, in: valueChars) == valueChars.count
        return indent + "\(target) = \(target) \(op) " + (simple ? value : "(\(value))")
    }

    /// `Array(name[` as `[UInt8](name[`.
    static func typedSlices(_ line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let mark = rest.range(of: "Array(") {
            out += rest[..<mark.lowerBound]
            let after = rest[mark.upperBound...]
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let joined = out.last.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ?? false
            let slice = !joined && !name.isEmpty && after.dropFirst(name.count).hasPrefix("[")
            out += slice ? "[UInt8](" : "Array("
            rest = after
        }
        return out + rest
    }

    // MARK: - Condition lists

    /// The line with the runs of comparison clauses in its condition list reordered by `salt` (see the type's
    /// documentation); any other line as it is.
    static func reorderClauses(_ line: String, salt: UInt64) -> String {
        let indent = String(line.prefix { $0 == " " })
        let code = Array(line.dropFirst(indent.count))
        let keyword: String
        if code.starts(with: "guard ") {
            keyword = "guard "
        } else if code.starts(with: "if ") {
            keyword = "if "
        } else {
            return line
        }
        // The list ends at ` else ` (guard) or at the first `{` (if), either at depth 0.
        var depth = 0
        var end: Int?
        var commas: [Int] = []
        var i = keyword.count
        while i < code.count, end == nil {
            switch code[i] {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "{" where depth == 0 && keyword == "if ": end = i
            case "{": return line  // a closure in a guard's condition
            case "," where depth == 0: commas.append(i)
            case " " where depth == 0 && keyword == "guard " && code[i...].starts(with: " else {"): end = i
            default: break
            }
            i += 1
        }
        guard let end, !commas.isEmpty else { return line }
        var clauses: [String] = []
        var start = keyword.count
        for comma in commas + [end] {
            clauses.append(String(code[start..<comma]).trimmingCharacters(in: .whitespaces))
            start = comma + 1
        }
        var reordered: [String] = []
        var run: [String] = []
        func flush() {
            reordered += run.sorted { Self.orderKey($0, salt) < Self.orderKey($1, salt) }
            run = []
        }
        for clause in clauses {
            if Self.isComparisonOfSimpleOperands(clause) {
                run.append(clause)
            } else {
                flush()
                reordered.append(clause)
            }
        }
        flush()
        guard reordered != clauses else { return line }
        let tail = String(code[end...]).trimmingCharacters(in: .whitespaces)  // `else { … }` or `{ …`
        return indent + keyword + reordered.joined(separator: ", ") + " " + tail
    }

    /// `a op b` with `op` one of the six comparisons and each side a name, member, tuple field or number.
    static func isComparisonOfSimpleOperands(_ clause: String) -> Bool {
        let parts = clause.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, Self.mirrored[String(parts[1])] != nil else { return false }
        return [parts[0], parts[2]].allSatisfy { side in
            guard let first = side.first, first != "." else { return false }
            return side.allSatisfy(Self.isOperandCharacter)
        }
    }

    /// FNV-1a of the clause after the salt's bytes: a fixed order for a generation, another for the next.
    private static func orderKey(_ clause: String, _ salt: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in (0..<8).map({ UInt8(truncatingIfNeeded: salt >> UInt64(8 * $0)) }) + Array(clause.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    // MARK: - Guards

    /// A `guard` whose conditions stand on several lines, each ending a clause at depth 0, followed by a one-line
    /// `else { … }`: one `guard` a line. Any other layout stays.
    static func splitGuards(_ lines: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            let indent = String(line.prefix { $0 == " " })
            let code = line.dropFirst(indent.count)
            guard code.hasPrefix("guard "), !code.contains(" else ") else {
                out.append(line)
                i += 1
                continue
            }
            // The condition lines, up to a line that is `else { … }` alone.
            var j = i + 1
            while j < lines.count, !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("else") { j += 1 }
            guard j < lines.count, j - i >= 2, j - i < 40 else {
                out.append(line)
                i += 1
                continue
            }
            let elseLine = lines[j].trimmingCharacters(in: .whitespaces)
            let conditions = lines[i..<j].map { $0.trimmingCharacters(in: .whitespaces) }
            guard elseLine.hasPrefix("else {"), elseLine.hasSuffix("}"), elseLine.filter({ $0 == "{" }).count == 1,
                !conditions.contains(where: { $0.contains("//") })
            else {
                out.append(line)
                i += 1
                continue
            }
            // Split after a line that ends a clause at depth 0.
            var groups: [[String]] = [[]]
            var depth = 0
            for (n, condition) in conditions.enumerated() {
                groups[groups.count - 1].append(condition)
                for ch in condition {
                    if "([{".contains(ch) { depth += 1 }
                    if ")]}".contains(ch) { depth -= 1 }
                }
                if depth == 0, condition.hasSuffix(","), n < conditions.count - 1 { groups.append([]) }
            }
            for (g, group) in groups.enumerated() {
                for (n, text) in group.enumerated() {
                    var text = text
                    if n == group.count - 1, text.hasSuffix(",") { text.removeLast() }
                    let head = n == 0 ? (g == 0 ? "" : "guard ") : "    "
                    let tail = n == group.count - 1 ? " " + elseLine : ""
                    out.append(indent + head + text + tail)
                }
            }
            i = j + 1
        }
        return out
    }
}
