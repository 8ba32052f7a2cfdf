/// The way one generation writes: drawn once from its seed, then used for every entry point, decoy and constant.
///
/// Variants drawn place by place make every generation the same mixture: each place differs, yet two files hold the
/// same shapes in the same proportions, and a pattern written for one matches the other (measured: decoys drawn per
/// place from one family left two generations' token streams nearly alike; see the ReceiptCodegen catalog's
/// Measurements article). A dialect makes the choices once per generation instead: which opaque predicates, in which
/// spelling; how a decoy mixes its run-time value; how the constants are decoded; how the unrolled SHA-1 rounds are
/// spelled (``SHA1Rounds``); and how the templates spell comparisons, condition lists, guards, emptiness, empty arrays,
/// updates and slices (``StyleRewriter``). Two generations then share a shape only where their dialects happen to
/// agree.
struct Dialect: Sendable {
    /// One spelling of an always-true predicate on a `UInt64` named `x` (``DecoyWriter/predicate(_:_:dialect:using:)``).
    struct Predicate: Sendable, Equatable {
        /// 0: an odd square is 1 modulo 8; 1: an odd square less one is 0 modulo 8; 2: an odd fourth power is 1
        /// modulo 16; 3: an odd cube is its root modulo 8.
        var identity: Int
        /// How the odd operand is made: `x | 1` (0), `1 | x` (1), or by a decoy's binding, which ends in `| 1` (2;
        /// `x | 1` where there is no binding).
        var odd: Int
        /// A power written in pairs (`(o &* o) &* (o &* o)`, `o &* (o &* o)`), not as one chain.
        var grouped: Bool
        /// How the low bits are tested: `& (2^k − 1)` against the residue (0), `% 2^k` against it (1), or the residue
        /// taken away first and `& (2^k − 1)` against 0 (2: `^ c` or `&- c` with a random `c` of that residue, `^ o`
        /// for the cube).
        var test: Int
        /// The constant side of the comparison first.
        var constantFirst: Bool
    }

    /// How ``SHA1Rounds`` spells the unrolled rounds, a tenth of a generation's tokens. Drawn place by place from every
    /// spelling, they left every generation the same mixture: two generations' unrolled bodies had most of their token
    /// 5-grams in common (the ReceiptCodegen catalog's Measurements article).
    struct Rounds: Sendable, Equatable {
        /// Two of the twelve spellings of a rotation, drawn place by place.
        var rotations: [Int]
        /// The choice function of rounds 0–19, one of four spellings.
        var choice: Int
        /// The majority function of rounds 40–59, one of five spellings.
        var majority: Int
        /// The chances in percent, each 20, 50 or 80, that a round's sum groups two of its terms, that three or four
        /// words combined by `^` group two of them, and that a schedule word takes two statements (combined, then
        /// rotated).
        var groupSum: Int, groupXor: Int, splitSchedule: Int
    }

    /// The predicates this generation uses (two or three).
    var predicates: [Predicate]
    /// The mixing steps a decoy's operand takes (indices into ``DecoyWriter``'s seven), four to six of them.
    var mixers: [Int]
    /// For each of the seven mixers: the run-time side first.
    var valueFirst: [Bool]
    /// How an operand's last shift is spelled: `x >> k` (0), `x &>> k` (1) or `x / 2^k` (2).
    var shift: Int
    /// How many mixing steps an operand takes.
    var steps: ClosedRange<Int>
    /// A decoy's binding: `let x: UInt64 = …` (false) or `let x = … as UInt64` (true).
    var castBinding: Bool
    /// The chance in percent that a decoy's branch is a `guard` (else an `if`): 20, 50 or 80.
    var guardPercent: Int
    /// An `Int` as a `UInt64`: `UInt64(truncatingIfNeeded: v)` (0), `UInt64(UInt(bitPattern: v))` (1) or
    /// `UInt64(bitPattern: Int64(v))` (2; `Int` is 64 bits wide on every platform the output builds for).
    var intSpelling: Int
    /// An array's count as a `UInt64`: `UInt64(a.count)` (true) or the `Int` spelling above (false).
    var plainCount: Bool

    /// The codecs the masked constants use (indices into ``MaskedConstants``' seven), two or three of them.
    var codecs: [Int]
    /// How a chunk's key meets `z`'s low byte, two of `k | z`, `z | k`, `k ^ z`, `z ^ k`, `k &+ z` and `z &+ k` (0–5),
    /// drawn chunk by chunk.
    var keyMixes: [Int]
    /// How a chunk's loop is written, two of `for x in […]` (0), `[…].forEach { x in … }` (1) and a loop over the
    /// indices of a local copy (2), drawn chunk by chunk.
    var chunkLoops: [Int]
    /// In a chunk's decoding step, the key or key stream first (`s ^ x`, not `x ^ s`).
    var keyFirst: Bool
    /// `z`'s low byte: `UInt8(truncatingIfNeeded: z)` (false) or `UInt8(z & 0xFF)` (true).
    var maskedByte: Bool
    /// An encoded chunk: `([…] as [UInt8])` (false) or `[UInt8]([…])` (true).
    var arrayCall: Bool
    /// The constants' run-time zero `z` is a `UInt64` (true) or an `Int` (false): the decoys in the constants, half a
    /// generation's lines, read it as it is or converted.
    var wideZero: Bool

    /// How the unrolled SHA-1 rounds are spelled.
    var rounds: Rounds

    /// ``StyleRewriter``: comparisons of two simple operands written mirrored (`0x30 == t.0`, `n > i`).
    var mirrorComparisons: Bool
    /// ``StyleRewriter``: a `guard` over several lines becomes one `guard` a line.
    var splitGuards: Bool
    /// ``StyleRewriter``: a one-line `guard` without bindings as an `if` of its negation.
    var negatedIfs: Bool
    /// ``StyleRewriter``: `a.isEmpty` as `a.count == 0`.
    var countForEmpty: Bool
    /// ``StyleRewriter``: `var a: [T] = []` as `var a = [T]()`.
    var emptyInitializer: Bool
    /// ``StyleRewriter``: `x += e` as `x = x + e`.
    var expandUpdates: Bool
    /// ``StyleRewriter``: `Array(b[…])` as `[UInt8](b[…])`.
    var typedSlices: Bool
    /// ``StyleRewriter``: the order of a condition list's comparisons of simple operands (a salt for their keys).
    var clauseOrder: UInt64

    /// The dialect of the generation with `seed` (from a random stream of its own).
    static func of(seed: [UInt8]) -> Dialect {
        var random = SeededGenerator(seed: seed, purpose: "receiptkit.codegen.dialect.v1")
        return Self.draw(using: &random)
    }

    static func draw(using random: inout SeededGenerator) -> Dialect {
        func coin() -> Bool { random.below(2) == 0 }
        // Two or three predicates, four to six mixers and two or three step counts: enough variety from place to
        // place that two generations whose dialects agree still share no run of six lines of the same shape.
        var predicates: [Predicate] = []
        let wanted = random.pick(2...3)
        while predicates.count < wanted {
            let predicate = Predicate(
                identity: random.below(4), odd: random.below(3), grouped: coin(), test: random.below(3), constantFirst: coin()
            )
            if !predicates.contains(predicate) { predicates.append(predicate) }
        }
        let mixers = Array(random.shuffled(Array(0..<7)).prefix(random.pick(4...6))).sorted()
        let valueFirst = (0..<7).map { _ in coin() }
        // Two steps at the least in most dialects: an operand of one step has few shapes, and a decoy at a function's
        // start, between template lines every generation has, matched another generation's decoy there.
        let steps = random.element([1...3, 2...3, 2...4])
        let castBinding = coin()
        let guardPercent = random.element([20, 50, 80])
        let intSpelling = random.below(3)
        let plainCount = coin()
        // The constants' decoders are half a generation's lines, hundreds of small loops of a few lines: two
        // generations that drew the same codec in the same spelling could share a run of six lines there, decoys and
        // all. Hence seven codecs, and spellings drawn chunk by chunk from the dialect's two.
        let codecs = Array(random.shuffled(Array(0..<7)).prefix(random.pick(2...3))).sorted()
        let shift = random.below(3)
        let keyMixes = Array(random.shuffled(Array(0..<6)).prefix(2))
        let chunkLoops = Array(random.shuffled([0, 1, 2]).prefix(2))
        // Never all or none: a schedule written all one way (every word in two statements, no `^` grouped) is a run
        // of like lines, and two generations' runs of it matched.
        let percents = [20, 50, 80]
        let rounds = Rounds(
            rotations: Array(random.shuffled(Array(0..<12)).prefix(2)), choice: random.below(4), majority: random.below(5),
            groupSum: random.element(percents), groupXor: random.element(percents), splitSchedule: random.element(percents)
        )
        return Dialect(
            predicates: predicates, mixers: mixers, valueFirst: valueFirst, shift: shift, steps: steps, castBinding: castBinding,
            guardPercent: guardPercent, intSpelling: intSpelling, plainCount: plainCount, codecs: codecs, keyMixes: keyMixes,
            chunkLoops: chunkLoops, keyFirst: coin(), maskedByte: coin(), arrayCall: coin(), wideZero: coin(), rounds: rounds,
            mirrorComparisons: coin(), splitGuards: coin(), negatedIfs: coin(), countForEmpty: coin(), emptyInitializer: coin(),
            expandUpdates: coin(), typedSlices: coin(), clauseOrder: random.next()
        )
    }
}
