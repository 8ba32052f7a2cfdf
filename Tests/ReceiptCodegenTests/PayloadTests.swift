import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing

@testable import ReceiptCodegen

/// The generated payload walker reads an attribute's short-form headers in place and hands any other to the
/// generation's `«tlv»`. The two ways must read alike: the walker as generated is checked against the same template
/// with its in-place reading turned off, with each DER reader variant, on minted payloads with purchases, the same
/// payloads with some headers in long form, random mutations of both, and attributes built on each edge of the
/// in-place reading.
@Suite(.enabled(if: HarnessBuild.swiftc != nil, Comment(rawValue: HarnessBuild.skipMessage)), .serialized)
struct PayloadTests {
    /// Part of the condition of the walker's in-place reading, as the template writes it.
    static let inPlace = "c[p &+ 1] < 0x80, c[p] & 0x1F != 0x1F {"

    /// `fast_i` / `plain_i`: the walker with and without its in-place reading, over DER reader variant `i`; each
    /// prints `nil` or the walker's fields, hex, joined by `|`.
    static let program = Task { () async throws -> LineProgram in
        var random = SeededGenerator(seed: Array("payload-tests".utf8), purpose: "tests")
        let plain = StructureTemplates.payload.replacingOccurrences(of: inPlace, with: "c[p &+ 1] < 0x80, p < 0, c[p] & 0x1F != 0x1F {")
        guard plain != StructureTemplates.payload else {
            throw HarnessBuild.Failure(description: "the payload template no longer reads headers in place as this test expects")
        }
        let time = ["civil", "monthDays", "digits", "asnTime", "rfc3339"]
        var names = Dictionary(uniqueKeysWithValues: time.map { ($0, $0) })
        var source = ""
        // The dialect spells only unrolled bodies, which these templates have none of.
        let dialect = Dialect.draw(using: &random)
        for template in [TimeTemplates.civil, TimeTemplates.monthLength, TimeTemplates.digits, TimeTemplates.asnTime, TimeTemplates.rfc3339] {
            source += try TemplateRenderer(names: names, constants: MaskedConstants(), dialect: dialect).render(template, using: &random) + "\n\n"
        }
        var cases: [String] = []
        for (i, tlv) in [DERTemplates.tlvRecursive, DERTemplates.tlvCounting].enumerated() {
            names["tlv"] = "tlv_\(i)"
            source += try TemplateRenderer(names: names, constants: MaskedConstants(), dialect: dialect).render(tlv, using: &random) + "\n\n"
            for (kind, template) in [("fast", StructureTemplates.payload), ("plain", plain)] {
                names["payload"] = "\(kind)_\(i)"
                source += try TemplateRenderer(names: names, constants: MaskedConstants(), dialect: dialect).render(template, using: &random) + "\n\n"
                cases.append("case \"\(kind)_\(i)\": out = show(\(kind)_\(i)(a))")
            }
        }
        source += """
            func show(_ p: ([UInt8], [UInt8], [UInt8], [UInt8], [UInt8], Int64, Int64, [ArraySlice<UInt8>], [UInt8])?) -> String {
                guard let p else { return "nil" }
                let products = p.7.map { hex(Array($0)) }.joined(separator: ",")
                return [hex(p.0), hex(p.1), hex(p.2), hex(p.3), hex(p.4), String(p.5), String(p.6), products, hex(p.8)].joined(separator: "|")
            }
            """
        return try await LineProgram(declarations: source, cases: cases, name: "rk-payload")
    }

    static let created = Date(timeIntervalSince1970: 1_700_000_000)

    /// A receipt with `count` purchases, every third without a product id.
    static func receipt(purchases count: Int) throws -> AppReceipt {
        var purchases: [InAppPurchase] = []
        for i in 0..<count {
            var purchase = try ReceiptMinter.purchase(spec: "com.example.product.\(i),\(1000 + i)", date: Self.created)
            if i % 3 == 2 { purchase.productIdentifier = nil }
            purchases.append(purchase)
        }
        return AppReceipt(
            environment: .production, bundleIdentifier: "com.example.app", appVersion: "1.2", opaqueValue: [1, 2, 3, 4],
            sha1Hash: Array(repeating: 7, count: 20), creationDate: Self.created, inAppPurchases: purchases)
    }

    /// What `show` prints for `receipt`'s payload.
    static func expected(_ receipt: AppReceipt) -> String {
        let bundle = Array((receipt.bundleIdentifier ?? "").utf8)
        let products = receipt.inAppPurchases.compactMap(\.productIdentifier).map { LineProgram.hex(Array($0.utf8)) }
        let fields = [
            LineProgram.hex(bundle), LineProgram.hex(DEREncoding.utf8String(receipt.bundleIdentifier ?? "")),
            LineProgram.hex(Array((receipt.appVersion ?? "").utf8)), LineProgram.hex(receipt.opaqueValue ?? []),
            LineProgram.hex(receipt.sha1Hash ?? []), String(Int64(Self.created.timeIntervalSince1970 * 1000)), "-1",
            products.joined(separator: ","), LineProgram.hex(Array("Production".utf8)),
        ]
        return fields.joined(separator: "|")
    }

    /// The definite-length elements that fill `b`.
    static func elements(_ b: ArraySlice<UInt8>) -> [(tag: UInt8, content: ArraySlice<UInt8>)] {
        var out: [(UInt8, ArraySlice<UInt8>)] = []
        var p = b.startIndex
        while p + 1 < b.endIndex {
            var length = Int(b[p + 1])
            var start = p + 2
            if length >= 0x80 {
                let n = length & 0x7F
                length = b[start..<(start + n)].reduce(0) { $0 << 8 | Int($1) }
                start += n
            }
            out.append((b[p], b[start..<(start + length)]))
            p = start + length
        }
        return out
    }

    /// A header for `length` content bytes, in long form (one to three length bytes) when `long` is set.
    static func header(_ tag: UInt8, _ length: Int, long: Bool, extra: Int) -> [UInt8] {
        guard long || length >= 0x80 else { return [tag, UInt8(length)] }
        var digits: [UInt8] = []
        var n = length
        repeat {
            digits.insert(UInt8(n & 0xFF), at: 0)
            n >>= 8
        } while n > 0
        digits = Array(repeating: 0, count: extra) + digits
        return [tag, 0x80 | UInt8(digits.count)] + digits
    }

    /// `payload` (a DER SET of attributes) with about half its attributes' headers, and their purchases', in long
    /// form, some with leading zero length bytes: the same values in BER.
    static func longForm(_ payload: ArraySlice<UInt8>, using random: inout some RandomNumberGenerator) -> [UInt8] {
        func wrap(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            header(tag, content.count, long: Bool.random(using: &random), extra: Int.random(in: 0...1, using: &random)) + content
        }
        var attributes: [UInt8] = []
        for set in elements(payload) {
            for attribute in elements(set.content) {
                let fields = elements(attribute.content)
                var encoded: [UInt8] = []
                for (i, field) in fields.enumerated() {
                    let isPurchase = i == 2 && fields[0].content.elementsEqual([17])
                    encoded += wrap(field.tag, isPurchase ? longForm(field.content, using: &random) : Array(field.content))
                }
                attributes += wrap(attribute.tag, encoded)
            }
        }
        return wrap(0x31, attributes)
    }

    /// An element in DER, as the minter writes it.
    static let der = DEREncoding.element

    /// Attributes on each edge of the in-place reading, with whether a payload holding one is read: each of the
    /// reading's checks decides one of them.
    static let edges: [(name: String, attribute: [UInt8], read: Bool)] = {
        let value = der(0x04, der(0x0C, Array("x".utf8)))
        let version = der(0x02, [1])
        let fields = der(0x02, [0x07]) + version + value
        var cases: [(String, [UInt8], Bool)] = []
        for (n, read) in [(0, false), (1, true), (2, true), (4, true), (5, false)] {
            cases.append(("a type of \(n) bytes", der(0x30, der(0x02, Array(repeating: 0, count: max(n - 1, 0)) + (n > 0 ? [0x07] : [])) + version + value), read))
        }
        cases += [
            ("a byte after the value", der(0x30, fields + [0x00]), false),
            ("a fourth field", der(0x30, fields + der(0x04, [])), false),
            ("no value", der(0x30, der(0x02, [0x07]) + version), false),
            ("the value past the SEQUENCE", [0x30, UInt8(fields.count - 1)] + fields, false),
            ("a SET for the SEQUENCE", der(0x31, fields), false),
            ("a BIT STRING for the type", der(0x30, der(0x03, [0x07]) + version + value), false),
            ("a constructed type", der(0x30, der(0x22, [0x07]) + version + value), false),
            ("an OCTET STRING for the version", der(0x30, der(0x02, [0x07]) + der(0x04, [1]) + value), false),
            ("a constructed value", der(0x30, der(0x02, [0x07]) + version + der(0x24, der(0x04, [0x41]))), false),
            ("the type's length in long form", der(0x30, [0x02, 0x81, 0x01, 0x07] + version + value), true),
            ("the value's length in long form", der(0x30, der(0x02, [0x07]) + version + [0x04, 0x81, 0x03] + der(0x0C, [0x78])), true),
            ("a SEQUENCE cut short", [0x30, 0x03, 0x02, 0x01], false),
            ("a SEQUENCE of two bytes", [0x30, 0x00], false),
            // Its last byte is the first of what follows the SET (the walk's caller appends an attribute).
            ("a SEQUENCE past the end of its SET", [0x30, UInt8(fields.count + 1)] + der(0x02, [0x07]) + version + [0x04, 0x04, 0x0C, 0x01, 0x78], false),
        ]
        return cases
    }()

    @Test func everyEdgeOfTheInPlaceReadingReadsAsTheGeneralReaderReadsIt() async throws {
        let receipt = try Self.receipt(purchases: 1)
        let attributes = Self.elements(ReceiptMinter.payload(receipt)[...]).first.map { Array($0.content) } ?? []
        let product = Self.der(0x30, Self.der(0x02, [0x06, 0xA6]) + Self.der(0x02, [1]) + Self.der(0x04, Self.der(0x0C, [0x70])))
        var queries: [String] = []
        for edge in Self.edges {
            // The edge among the app's attributes (type 7 is not one the walker keeps), and inside a purchase that
            // another attribute follows.
            let purchase = Self.der(0x04, Self.der(0x31, product + edge.attribute))
            let wrapper = Self.der(0x30, Self.der(0x02, [17]) + Self.der(0x02, [1]) + purchase)
            let next = Self.der(0x30, Self.der(0x02, [8]) + Self.der(0x02, [1]) + Self.der(0x04, []))
            for payload in [Self.der(0x31, attributes + edge.attribute), Self.der(0x31, attributes + wrapper + next)] {
                queries += ["fast_0", "plain_0", "fast_1", "plain_1"].map { "\($0) \(LineProgram.hex(payload))" }
            }
        }
        let answers = try await Self.program.value.ask(queries)
        try #require(answers.count == queries.count)
        for (n, edge) in Self.edges.enumerated() {
            for (place, offset) in [("among the app's", 8 * n), ("in a purchase", 8 * n + 4)] {
                let four = Array(answers[offset..<(offset + 4)])
                #expect(Set(four).count == 1, "\(edge.name), \(place): \(four.map { $0.prefix(60) })")
                #expect((four[0] != "nil") == edge.read, "\(edge.name), \(place): \(four[0].prefix(60))")
            }
        }
    }

    @Test func headersReadInPlaceReadAsTheGeneralReaderReadsThem() async throws {
        var random = SystemRandomNumberGenerator()
        var inputs: [(payload: [UInt8], expected: String?)] = []
        for count in [0, 1, 5, 40] {
            let receipt = try Self.receipt(purchases: count)
            let payload = ReceiptMinter.payload(receipt)
            inputs.append((payload, Self.expected(receipt)))
            for _ in 0..<3 { inputs.append((Self.longForm(payload[...], using: &random), Self.expected(receipt))) }
        }
        for (base, _) in inputs {
            for _ in 0..<60 {
                inputs.append((Mutation.of(base, most: 3, telling: [0x00, 0x7F, 0x80, 0x81, 0x82, 0x84, 0x1F, 0x30, 0x31], using: &random), nil))
            }
        }
        var queries: [String] = []
        for (payload, _) in inputs {
            queries += ["fast_0", "plain_0", "fast_1", "plain_1"].map { "\($0) \(LineProgram.hex(payload))" }
        }
        let answers = try await Self.program.value.ask(queries)
        try #require(answers.count == queries.count)
        var refused = 0
        for (n, input) in inputs.enumerated() {
            let four = Array(answers[(4 * n)..<(4 * n + 4)])
            if Set(four).count != 1 { Issue.record("payload \(n): \(four.map { $0.prefix(120) })") }
            if let expected = input.expected { #expect(four[0] == expected, "payload \(n)") }
            if four[0] == "nil" { refused += 1 }
        }
        // The mutations reach both outcomes: refused payloads and payloads still read.
        #expect(refused > 0 && refused < inputs.count - 16)
    }
}
