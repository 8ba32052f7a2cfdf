/// SHA-1's 80 rounds and message schedule for one 64-byte block, unrolled and written per generation: the body of the
/// unrolled SHA-1 variants' `compress(h, p)` (``HashTemplates/sha1SingleAssignment``,
/// ``HashTemplates/sha1InPlace``), one statement a line, to stand in a block after ``DecoyWriter/unrolledMarker``.
///
/// The body reads the block's sixteen big-endian words at `p` (an `UnsafeRawPointer`), the state from and into
/// `h[0]` … `h[4]` (an `UnsafeMutablePointer<UInt32>`), and the round constants from `k0` … `k3` (typed `UInt32`
/// constants the template declares: a literal in a long sum makes the type checker give up).
///
/// Why unrolled: the loop variants ran much slower (the words and the state stay in registers or fixed stack slots; no
/// index arithmetic, no array of 80 words). Why no decoys: sparse ones in the rounds (one every two to four lines, with
/// the block's index for a run-time value) made a generation's check of a large receipt markedly slower. (The figures,
/// and how they were measured, are in the ReceiptCodegen catalog's Measurements article.) Why written per generation:
/// without decoys, two generations would otherwise share hundreds of lines of the same shape. The generation's dialect
/// (``Dialect/Rounds``) picks two of twelve spellings of a rotation (`(x << n) | (x >> m)`, swapped, with `^` or `&+`,
/// with the masking shifts), one form of each round function, and how often a sum or an `^` groups two terms and a
/// schedule word takes two statements; each occurrence then draws its own spelling within those — a sum's terms in any
/// order, the schedule's four words in any order — and ``TightLoopRewriter`` moves statements within a short window
/// (``TightLoopRewriter/unrolledWindow``: any order gathers the loads at the start, where two generations' runs of them
/// can match).
enum SHA1Rounds {
    /// How the body holds its values; the raw value is the template's placeholder name (`«U:sha1InPlace»`).
    enum Form: String {
        /// A new constant for every value: `a1` … `a80` for the rounds' new words, `r…` for the rotated ones, `w0` …
        /// `w79` for the schedule.
        case singleAssignment = "sha1SingleAssignment"
        /// Five state variables `a` … `e` updated in place with their roles renamed round by round, and a 16-word
        /// circular schedule in variables `w0` … `w15`.
        case inPlace = "sha1InPlace"
    }

    /// The body's lines, unindented.
    static func body(_ form: Form, dialect: Dialect, using random: inout SeededGenerator) -> [String] {
        let spelling = Spelling(dialect: dialect)
        switch form {
        case .singleAssignment: return spelling.singleAssignment(using: &random)
        case .inPlace: return spelling.inPlace(using: &random)
        }
    }

    /// The generation's choices (``Dialect/rounds``) with the spellings that read them.
    private struct Spelling {
        var rounds: Dialect.Rounds

        init(dialect: Dialect) { self.rounds = dialect.rounds }

        // MARK: - Forms

        func singleAssignment(using random: inout SeededGenerator) -> [String] {
            // Written in the order of use — each schedule word right before its round — so that the short moves
            // TightLoopRewriter makes keep like lines (sixteen loads, a run of schedule words) apart.
            var lines = (0..<5).map { self.binding("let", "s\($0)", using: &random) + self.state($0, using: &random) }
            // Round t reads a = A(t), b = A(t-1), c = R(t-2), d = R(t-3), e = R(t-4), where A is the newest word of each
            // round and R(x) = A(x) rotated by 30; the state's five words are A(0), A(-1), R(-2), R(-3), R(-4).
            // newest[k + 1] names A(k), rotated[k + 4] names R(k).
            var newest = ["s1", "s0"]
            var rotated = ["s4", "s3", "s2"]
            for t in 0..<80 {
                if t < 16 {
                    lines.append(self.binding("let", "w\(t)", using: &random) + self.load(t, using: &random))
                } else {
                    let words = random.shuffled(["w\(t - 3)", "w\(t - 8)", "w\(t - 14)", "w\(t - 16)"])
                    let mixed = self.xor(words, using: &random)
                    if random.below(100) < self.rounds.splitSchedule {
                        lines.append("let x\(t) = \(mixed)")
                        lines.append("let w\(t) = \(self.rotation("x\(t)", 1, using: &random))")
                    } else {
                        lines.append("let w\(t) = \(self.rotation("(\(mixed))", 1, using: &random))")
                    }
                }
                let name = t == 0 ? "rm1" : "r\(t - 1)"
                lines.append("let \(name) = \(self.rotation(newest[t], 30, using: &random))")
                rotated.append(name)
                let (a, b, c, d, e) = (newest[t + 1], newest[t], rotated[t + 2], rotated[t + 1], rotated[t])
                let round = self.round(t, a, b, c, d, e, "w\(t)", using: &random)
                lines.append("let a\(t + 1) = \(round)")
                newest.append("a\(t + 1)")
            }
            for (j, value) in ["a80", "a79", "r78", "r77", "r76"].enumerated() {
                lines.append(self.writeBack(j, value, using: &random))
            }
            return lines
        }

        func inPlace(using random: inout SeededGenerator) -> [String] {
            var names = ["a", "b", "c", "d", "e"]
            var lines = names.enumerated().map { j, name in self.binding("var", name, using: &random) + self.state(j, using: &random) }
            for t in 0..<80 {
                let w = "w\(t % 16)"
                if t < 16 {
                    lines.append(self.binding("var", w, using: &random) + self.load(t, using: &random))
                } else {
                    let words = random.shuffled([w, "w\((t - 3) % 16)", "w\((t - 8) % 16)", "w\((t - 14) % 16)"])
                    let mixed = self.xor(words, using: &random)
                    if random.below(100) < self.rounds.splitSchedule {
                        lines.append("\(w) = \(mixed)")
                        lines.append("\(w) = \(self.rotation(w, 1, using: &random))")
                    } else {
                        lines.append("\(w) = \(self.rotation("(\(mixed))", 1, using: &random))")
                    }
                }
                let (a, b, c, d, e) = (names[0], names[1], names[2], names[3], names[4])
                lines.append("\(e) = \(self.round(t, a, b, c, d, e, w, using: &random))")
                lines.append("\(b) = \(self.rotation(b, 30, using: &random))")
                names = [e, a, b, c, d]
            }
            for (j, name) in names.enumerated() { lines.append(self.writeBack(j, name, using: &random)) }
            return lines
        }

        // MARK: - Spellings

        // The loads, the state's reads and its write-back are runs of like statements (sixteen, five and five, moved
        // only a few places): a load or a read draws from twelve spellings (six, typed or not), a write-back from six,
        // so that two generations' runs of them differ. With four, four and three, a run of six matching lines there
        // was the commonest shared run of the diversity proof (the ReceiptCodegen catalog's Measurements article has
        // the count).

        /// `let` or `var` `name`, with or without its type, and ` = `.
        func binding(_ keyword: String, _ name: String, using random: inout SeededGenerator) -> String {
            random.below(2) == 0 ? "\(keyword) \(name) = " : "\(keyword) \(name): UInt32 = "
        }

        /// The block's big-endian word `i`.
        func load(_ i: Int, using random: inout SeededGenerator) -> String {
            let at = 4 * i
            return random.element([
                "UInt32(bigEndian: p.loadUnaligned(fromByteOffset: \(at), as: UInt32.self))",
                "p.loadUnaligned(fromByteOffset: \(at), as: UInt32.self).bigEndian",
                "UInt32(bigEndian: (p + \(at)).loadUnaligned(as: UInt32.self))",
                "(p + \(at)).loadUnaligned(as: UInt32.self).bigEndian",
                "UInt32(bigEndian: p.advanced(by: \(at)).loadUnaligned(as: UInt32.self))",
                "p.advanced(by: \(at)).loadUnaligned(as: UInt32.self).bigEndian",
            ])
        }

        /// The state's word `j`.
        func state(_ j: Int, using random: inout SeededGenerator) -> String {
            random.element([
                "h[\(j)]", "(h + \(j)).pointee", "h.advanced(by: \(j)).pointee", "h[\(j)] as UInt32", "(h + \(j))[0]",
                "h.advanced(by: \(j))[0]",
            ])
        }

        /// The state's word `j` plus `value`, stored.
        func writeBack(_ j: Int, _ value: String, using random: inout SeededGenerator) -> String {
            random.element([
                "h[\(j)] = h[\(j)] &+ \(value)", "h[\(j)] &+= \(value)", "h[\(j)] = \(value) &+ h[\(j)]",
                "h[\(j)] = (h + \(j)).pointee &+ \(value)", "h[\(j)] = \(value) &+ h.advanced(by: \(j)).pointee",
                "h[\(j)] = \(value) &+ (h + \(j))[0]",
            ])
        }

        /// `a`'s new value in round `t`: rotl(a, 5) + f(b, c, d) + e + k + w.
        func round(
            _ t: Int, _ a: String, _ b: String, _ c: String, _ d: String, _ e: String, _ w: String,
            using random: inout SeededGenerator
        ) -> String {
            // (Not among the choice function's spellings: `(b & c) | (~b & d)`, which ran the single-assignment body
            // markedly slower than every other spelling here; see the ReceiptCodegen catalog's Measurements article.)
            let f: String
            switch t {
            case 0..<20:
                f = [
                    "\(d) ^ (\(b) & (\(c) ^ \(d)))", "((\(c) ^ \(d)) & \(b)) ^ \(d)", "\(d) ^ ((\(d) ^ \(c)) & \(b))",
                    "(\(b) & \(c)) ^ (~\(b) & \(d))",
                ][self.rounds.choice]
            case 40..<60:
                f = [
                    "(\(b) & \(c)) | (\(d) & (\(b) | \(c)))", "(\(b) & \(c)) | ((\(b) | \(c)) & \(d))",
                    "(\(b) & \(c)) ^ (\(d) & (\(b) ^ \(c)))", "(\(c) & \(d)) | (\(b) & (\(c) | \(d)))",
                    "(\(b) & \(c)) ^ (\(b) & \(d)) ^ (\(c) & \(d))",
                ][self.rounds.majority]
            default:
                f = self.xor(random.shuffled([b, c, d]), using: &random)
            }
            var terms = random.shuffled([self.rotation(a, 5, using: &random), "(\(f))", e, "k\(t / 20)", w])
            if random.below(100) < self.rounds.groupSum {
                let at = random.below(terms.count - 1)
                terms.replaceSubrange(at...(at + 1), with: ["(\(terms[at]) &+ \(terms[at + 1]))"])
            }
            return terms.joined(separator: " &+ ")
        }

        /// `x` rotated left by `n`, parenthesized, in one of the generation's two spellings (of twelve: the left
        /// shift first or second, `|`, `^` or `&+` between, plain or masking shifts). The two shifts have no bit in
        /// common, so the three operators agree, and the optimizer makes each a rotate instruction.
        func rotation(_ x: String, _ n: Int, using random: inout SeededGenerator) -> String {
            let spelling = random.element(self.rounds.rotations)
            let (left, right) = spelling % 2 == 0 ? ("<<", ">>") : ("&<<", "&>>")
            let op = ["|", "^", "&+"][(spelling / 2) % 3]
            let (shl, shr) = ("(\(x) \(left) \(n))", "(\(x) \(right) \(32 - n))")
            return spelling < 6 ? "(\(shl) \(op) \(shr))" : "(\(shr) \(op) \(shl))"
        }

        /// The words combined with `^`, maybe two of them grouped.
        func xor(_ words: [String], using random: inout SeededGenerator) -> String {
            var words = words
            if words.count > 2, random.below(100) < self.rounds.groupXor {
                let at = random.below(words.count - 1)
                words.replaceSubrange(at...(at + 1), with: ["(\(words[at]) ^ \(words[at + 1]))"])
            }
            return words.joined(separator: " ^ ")
        }
    }
}
