import Crypto
import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing
import _CryptoExtras

@testable import ReceiptCodegen

/// Proof 5 of the codegen issue: every variant of every primitive, compiled into one program, against swift-crypto
/// (hashes, RSA) or, where swift-crypto has no counterpart (the DER reader, big-number edge cases), against the other
/// variant — on known answers, the padding boundaries and random inputs. Tight loops are rewritten as in a
/// generation (``TightLoopRewriter``), each RSA variant three times.
@Suite(.enabled(if: HarnessBuild.swiftc != nil, Comment(rawValue: HarnessBuild.skipMessage)), .serialized)
struct PrimitiveTests {
    /// The program: every variant renamed `family_i`, its dependencies bound to variant 0, and a loop answering
    /// `command hex [hex]` lines on standard input.
    /// `modexp_0` … `modexp_5`: the two RSA variants, each in three rewrites of its tight loops.
    static let modexpCount = 6
    /// `sha1_0` … `sha1_5`: the two unrolled SHA-1 variants, each in three spellings and orders (``SHA1Rounds``).
    static let sha1Count = 6

    /// The unrolled rounds' spelling of SHA-1 rendering `i` (0–5): between them, every rotation (two each), every
    /// choice and majority function, each grouping and schedule chance.
    static func rounds(_ i: Int) -> Dialect.Rounds {
        let percents = [20, 50, 80]
        return Dialect.Rounds(
            rotations: [2 * i, 2 * i + 1], choice: i % 4, majority: (i + 3) % 5, groupSum: percents[i % 3],
            groupXor: percents[(i + 1) % 3], splitSchedule: percents[(i + 2) % 3]
        )
    }

    static let program = Task { () async throws -> LineProgram in
        var random = SeededGenerator(seed: Array("primitive-tests".utf8), purpose: "tests")
        var names: [String: String] = [:]
        for (family, _) in PrimitiveCatalog.variants { names[family] = family + "_0" }
        var source = ""
        var cases: [String] = []
        for (family, variants) in PrimitiveCatalog.variants {
            // The big-number variants twice more, their tight loops rewritten again (other orders and spellings);
            // the SHA-1 variants twice more, their unrolled rounds written again.
            let templates = family == "modexp" || family == "sha1" ? variants + variants + variants : variants
            for (i, template) in templates.enumerated() {
                var scoped = names
                scoped[family] = "\(family)_\(i)"
                var dialect = Dialect.draw(using: &random)
                if family == "sha1" { dialect.rounds = Self.rounds(i) }
                let rendered = try TemplateRenderer(names: scoped, constants: MaskedConstants(), dialect: dialect).render(template, using: &random)
                source += TightLoopRewriter().rewrite(rendered, using: &random) + "\n\n"
                let name = "\(family)_\(i)"
                switch family {
                case "sha1", "sha256": cases.append("case \"\(name)\": out = hex(\(name)(a))")
                case "diff": cases.append("case \"\(name)\": out = \(name)(a, b) == 0 ? \"equal\" : \"different\"")
                case "modexp": cases.append("case \"\(name)\": out = \(name)(a, b).map(hex) ?? \"nil\"")
                case "tlv": cases.append("case \"\(name)\": out = walk(a, \(name))")
                case "kids": cases.append("case \"\(name)\": out = \(name)(a, 0, a.count).map { \"\\($0)\" } ?? \"nil\"")
                default:
                    cases.append(
                        "case \"\(name)\": out = tlv_0(a, 0, a.count, 0).flatMap { \(name)(a, ($0.0, 0, $0.1, $0.2, $0.3), 0) }.map(hex) ?? \"nil\"")
                }
            }
        }
        source += #"""
            /// Every element, depth first, as tag:start-next, with ! where reading stopped.
            func walk(_ b: [UInt8], _ read: ([UInt8], Int, Int, Int) -> (UInt8, Int, Int, Int)?) -> String {
                var out = ""
                var stack = [(0, b.count, 0)]
                while let (start, end, depth) = stack.popLast() {
                    var p = start
                    while p < end {
                        guard let t = read(b, p, end, 0) else {
                            out += "!\(p);"
                            break
                        }
                        out += "\(t.0):\(p)-\(t.3);"
                        if t.0 & 0x20 != 0, depth < 6 { stack.append((t.1, t.2, depth + 1)) }
                        p = t.3
                    }
                }
                return out
            }
            """#
        return try await LineProgram(declarations: source, cases: cases, name: "rk-primitives")
    }

    /// Answers to `queries` (one line each), in order.
    func ask(_ queries: [String]) async throws -> [String] {
        try await Self.program.value.ask(queries)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { LineProgram.hex(bytes) }

    @Test func hashesMatchSwiftCrypto() async throws {
        var random = SystemRandomNumberGenerator()
        var messages: [[UInt8]] = Array(0...200).map { n in (0..<n).map { _ in UInt8.random(in: 0...255, using: &random) } }
        messages += (0..<20).map { _ in (0..<Int.random(in: 200...3000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        messages.append(Array("abc".utf8))
        messages.append((0..<79_104).map { _ in UInt8.random(in: 0...255, using: &random) })
        var queries: [String] = []
        var expected: [String] = []
        for message in messages {
            for i in 0..<Self.sha1Count {
                queries.append("sha1_\(i) \(Self.hex(message))")
                expected.append(Self.hex(Insecure.SHA1.hash(data: message)))
            }
            for i in 0..<2 {
                queries.append("sha256_\(i) \(Self.hex(message))")
                expected.append(Self.hex(SHA256.hash(data: message)))
            }
        }
        let answers = try await ask(queries)
        #expect(answers.count == expected.count)
        for (query, (answer, want)) in zip(queries, zip(answers, expected)) where answer != want {
            Issue.record("\(query.prefix(40))…: \(answer) ≠ \(want)")
        }
    }

    @Test func comparisonsSayEqualExactlyForEqualBytes() async throws {
        let pairs: [([UInt8], [UInt8], Bool)] = [
            ([], [], true), ([1], [1], true), ([1, 2, 3], [1, 2, 3], true), ([1, 2, 3], [1, 2, 4], false),
            ([1, 2, 3], [1, 2], false), ([], [0], false), ([0xFF], [0x00], false), ([0x00, 0xFF], [0xFF, 0x00], false),
        ]
        var queries: [String] = []
        var expected: [String] = []
        for (a, b, equal) in pairs {
            for i in 0..<2 {
                queries.append("diff_\(i) \(Self.hex(a)) \(Self.hex(b))")
                expected.append(equal ? "equal" : "different")
            }
        }
        #expect(try await ask(queries) == expected)
    }

    @Test func rsaRecoversThePaddedDigestOfRealSignaturesAndBothVariantsAgree() async throws {
        var queries: [String] = []
        var expected: [String] = []
        for bits in [_RSA.Signing.KeySize.bits2048, .bits3072, .bits4096] {
            let key = try _RSA.Signing.PrivateKey(keySize: bits)
            let primitives = try key.publicKey.getKeyPrimitives()
            let n = [UInt8](primitives.modulus)
            let message = Array("ReceiptKit \(bits.bitCount)".utf8)
            let signature = try key.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
            let digestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
                + Array(SHA256.hash(data: message))
            let k = n.drop { $0 == 0 }.count
            let encoded = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: k - 3 - digestInfo.count) + [0x00] + digestInfo
            let one = [UInt8](repeating: 0, count: k - 1) + [1]
            var minusOne = Array(n.drop { $0 == 0 })
            minusOne[k - 1] -= 1
            let even = Array(n.dropLast()) + [n[n.count - 1] & 0xFE]
            for i in 0..<Self.modexpCount {
                queries.append("modexp_\(i) \(Self.hex(signature.rawRepresentation)) \(Self.hex(n))")
                expected.append(Self.hex(encoded))
                queries.append("modexp_\(i) \(Self.hex(one)) \(Self.hex(n))")
                expected.append(Self.hex(one))
                queries.append("modexp_\(i) \(Self.hex(minusOne)) \(Self.hex(n))")
                expected.append(Self.hex(minusOne))  // (n − 1)^odd = n − 1
                queries.append("modexp_\(i) \(Self.hex(Array(n.drop { $0 == 0 }))) \(Self.hex(n))")
                expected.append("nil")  // not smaller than n
                queries.append("modexp_\(i) \(Self.hex(one.dropFirst())) \(Self.hex(n))")
                expected.append("nil")  // one byte short
                queries.append("modexp_\(i) \(Self.hex(one)) \(Self.hex(even))")
                expected.append("nil")  // even modulus
            }
        }
        let answers = try await ask(queries)
        #expect(answers == expected)

        // Random bases under a real modulus and under random odd moduli of every length from 64 to 512 bytes (most
        // not a whole number of 64-bit words, some written with leading zero bytes): every variant and rewrite agrees.
        var random = SystemRandomNumberGenerator()
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let real = [UInt8](try key.publicKey.getKeyPrimitives().modulus).drop { $0 == 0 }
        var pairs: [String] = []
        for trial in 0..<80 {
            var n = Array(real)
            if trial >= 40 {
                n = (0..<Int.random(in: 64...512, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                n[0] |= 1 << UInt8.random(in: 0...7, using: &random)
                n[n.count - 1] |= 1
            }
            var base = (0..<n.count).map { _ in UInt8.random(in: 0...255, using: &random) }
            base[0] = base[0] % max(1, n[0])
            let written = trial % 3 == 0 ? [0, 0] + n : n
            pairs += (0..<Self.modexpCount).map { "modexp_\($0) \(Self.hex(base)) \(Self.hex(written))" }
        }
        let results = try await ask(pairs)
        #expect(results.count == pairs.count)
        for i in stride(from: 0, to: results.count, by: Self.modexpCount) {
            #expect(Set(results[i..<min(i + Self.modexpCount, results.count)]).count == 1)
            #expect(results[i] != "nil")
        }
    }

    /// 2^65537 mod n by 65,537 doublings, each followed by a subtraction of n when the sum reaches it: slow, plain and
    /// independent of both variants' Montgomery arithmetic and long division.
    static func twoToTheExponent(mod n: [UInt8]) -> [UInt8] {
        // Little-endian 32-bit words, one spare for the doubling's carry.
        let digits = (n.count + 3) / 4
        var modulus = [UInt64](repeating: 0, count: digits + 1)
        for (i, byte) in n.reversed().enumerated() { modulus[i / 4] |= UInt64(byte) << UInt64(8 * (i % 4)) }
        var x = [UInt64](repeating: 0, count: digits + 1)
        x[0] = 1
        for _ in 0..<65_537 {
            var carry: UInt64 = 0
            for i in 0...digits {
                let doubled = x[i] << 1 | carry
                x[i] = doubled & 0xFFFF_FFFF
                carry = doubled >> 32
            }
            var atLeast = true
            for i in stride(from: digits, through: 0, by: -1) where x[i] != modulus[i] {
                atLeast = x[i] > modulus[i]
                break
            }
            if atLeast {
                var borrow: UInt64 = 0
                for i in 0...digits {
                    let difference = (x[i] | 1 << 32) - modulus[i] - borrow
                    x[i] = difference & 0xFFFF_FFFF
                    borrow = difference >> 32 == 0 ? 1 : 0
                }
            }
        }
        return (0..<n.count).map { i in UInt8(truncatingIfNeeded: x[(n.count - 1 - i) / 4] >> UInt64(8 * ((n.count - 1 - i) % 4))) }
    }

    @Test func rsaOfTwoMatchesPlainDoublingsForEveryVariant() async throws {
        // Base 2: all but the last word of the dividend zero, the case a long division's digit estimate gets wrong
        // first. Moduli of 64, 65, 67, 255, 256 and 257 bytes (whole words, a spare byte or three, 32-bit digits with
        // a zero top half), random and odd, top byte not zero.
        var random = SystemRandomNumberGenerator()
        var queries: [String] = []
        var expected: [String] = []
        for length in [64, 65, 67, 255, 256, 257] {
            var n = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            n[0] = max(n[0], 1)
            n[length - 1] |= 1
            let two = [UInt8](repeating: 0, count: length - 1) + [2]
            let answer = Self.hex(Self.twoToTheExponent(mod: n))
            for i in 0..<Self.modexpCount {
                queries.append("modexp_\(i) \(Self.hex(two)) \(Self.hex(n))")
                expected.append(answer)
            }
        }
        #expect(try await ask(queries) == expected)
    }

    @Test func derReadersAgreeOnReceiptsAndTheirMutations() async throws {
        let ca = try TestCertificateAuthority()
        var inputs: [[UInt8]] = []
        for style in [ReceiptMinter.Style.appStore, .xcode] {
            let receipt = ReceiptMinter.settingDeviceHash(
                of: AppReceipt(bundleIdentifier: "com.example.app", appVersion: "1", opaqueValue: [1, 2, 3]),
                for: DeviceIdentifier(bytes: [9, 9, 9]))
            inputs.append(try ReceiptMinter.mint(receipt, signer: ca.receiptSigner, options: .init(style: style)))
        }
        var random = SystemRandomNumberGenerator()
        for base in inputs {
            for _ in 0..<150 {
                inputs.append(Mutation.of(base, most: 4, telling: [0x00, 0x80, 0x81, 0x84, 0x85, 0xFF, 0x24, 0x04], using: &random))
            }
        }
        inputs += [[], [0x30], [0x30, 0x80], [0x30, 0x80, 0x00, 0x00], [0x24, 0x80, 0x04, 0x01, 0x41, 0x00, 0x00], [0x1F, 0x01, 0x00]]
        var queries: [String] = []
        for input in inputs {
            for family in ["tlv", "kids", "octets"] {
                queries += ["\(family)_0 \(Self.hex(input))", "\(family)_1 \(Self.hex(input))"]
            }
        }
        let answers = try await ask(queries)
        #expect(answers.count == queries.count)
        for i in stride(from: 0, to: answers.count - 1, by: 2) where answers[i] != answers[i + 1] {
            Issue.record("\(queries[i].prefix(12)): \(answers[i].prefix(200)) ≠ \(answers[i + 1].prefix(200))")
        }
        #expect(answers.contains { $0.contains("!") })  // the mutations do reach malformed input
        // A constructed (BER) OCTET STRING of indefinite length is joined by both.
        let joined = try await ask(["octets_0 2480040141040142" + "0000", "octets_1 2480040141040142" + "0000"])
        #expect(joined == ["4142", "4142"])
    }
}
