import Testing

@testable import ReceiptCodegen

/// Every way a generation can write its constants decodes them: each codec in each spelling of a dialect, compiled
/// (`-O`, warnings as errors) and run on `z = 0`, gives back the bytes it masked. (AgreementTests use them too, but
/// only in the spellings their seeds draw.)
@Suite(.enabled(if: HarnessBuild.swiftc != nil, Comment(rawValue: HarnessBuild.skipMessage)))
struct MaskedConstantsTests {
    /// Bytes of every length a chunk split can meet (none, one, a chunk's 2…5, several chunks), 0x00 and 0xFF among
    /// them.
    static let values: [[UInt8]] = [
        [], [0x00], [0xFF, 0x00], Array("_MASReceipt".utf8), (0..<48).map { UInt8(($0 * 181 + 7) % 256) }, [0x80, 0x7F, 0x01],
    ]

    @Test func everyCodecInEverySpellingDecodesWhatItMasked() async throws {
        var random = SeededGenerator(seed: Array("masked-constants-tests".utf8), purpose: "tests")
        var source = ""
        var cases: [String] = []
        var names: [String] = []
        var n = 0
        // Each codec in each loop with two of the key mixes, so that each codec meets all six.
        for codec in 0..<7 {
            for loop in 0..<3 {
                for keyMix in [(codec + loop) % 6, (codec + loop + 3) % 6] {
                    var dialect = Dialect.draw(using: &random)
                    dialect.codecs = [codec]
                    dialect.keyMixes = [keyMix]
                    dialect.chunkLoops = [loop]
                    // The two-way switches alternate, so that each meets every codec, mix and loop.
                    dialect.keyFirst = n % 2 == 0
                    dialect.maskedByte = n % 4 < 2
                    dialect.arrayCall = n % 3 == 0
                    var constants = MaskedConstants()
                    for (i, value) in Self.values.enumerated() { constants.add("c\(i)", value) }
                    constants.shuffle(using: &random)
                    let name = "k_\(codec)_\(keyMix)_\(loop)"
                    source += constants.render(name: name, dialect: dialect, using: &random) + "\n\n"
                    let order = Self.values.indices.map { constants.index(of: "c\($0)") ?? -1 }
                    cases.append("case \"\(name)\": let t = \(name)(0); out = \(order).map { $0 >= 0 && $0 < t.count ? hex(t[$0]) : \"missing\" }.joined(separator: \",\")")
                    names.append(name)
                    n += 1
                }
            }
        }
        let program = try await LineProgram(declarations: source, cases: cases, name: "rk-constants")
        let answers = try await program.ask(names)
        try #require(answers.count == names.count)
        let expected = Self.values.map { LineProgram.hex($0) }.joined(separator: ",")
        for (name, answer) in zip(names, answers) {
            #expect(answer == expected, "\(name)")
        }
    }
}
