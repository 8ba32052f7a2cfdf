import Foundation
import ReceiptTestSupport
import Testing
import _ReceiptKitShared

@Suite("Base64Decoder")
struct Base64DecoderTests {
    static func decode(_ text: String, skippingWhitespace: Bool = true) -> (bytes: [UInt8], isCanonical: Bool)? {
        Array(text.utf8).withUnsafeBufferPointer { Base64Decoder.decode($0, skippingWhitespace: skippingWhitespace) }
    }

    /// Random bytes of every length up to 200, every byte value, and a receipt-sized run of 0xFF.
    static func samples() -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = (0..<200).map { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        inputs.append(Array(0...255))
        inputs.append([UInt8](repeating: 0xFF, count: 6_627))
        return inputs
    }

    @Test("decodes Foundation's text for every length and padding, as canonical")
    func roundTrips() {
        for input in Self.samples() {
            let text = Data(input).base64EncodedString()
            let decoded = Self.decode(text)
            #expect(decoded?.bytes == input, "\(input.count) bytes")
            #expect(decoded?.isCanonical == true, "\(input.count) bytes")
            let kept = Base64Decoder.decode(text, skippingWhitespace: false)
            #expect(kept?.bytes == input)
            #expect(kept?.canonical?.text == text)
        }
    }

    @Test("skips whitespace only when asked, and text with whitespace is not canonical")
    func whitespace() {
        let bytes = Array((0..<100).map { UInt8($0) })
        let text = "  \n" + Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]) + "\t\u{0B}\u{0C}\r\n"
        #expect(Self.decode(text)?.bytes == bytes)
        #expect(Self.decode(text)?.isCanonical == false)
        #expect(Self.decode(text, skippingWhitespace: false) == nil)
        #expect(Base64Decoder.decode(text, skippingWhitespace: true)?.canonical == nil)
        // Whitespace between the symbols and the padding, and after it.
        #expect(Self.decode("QQ =\n= ")?.bytes == [0x41])
    }

    @Test("unused bits that are not zero: the bytes Foundation gives, not canonical")
    func unusedBits() {
        for text in ["QR==", "QUN=", "QUJDRB==", "QUJDREX="] {
            let foundation = Data(base64Encoded: text).map { Array($0) }
            #expect(foundation != nil)
            #expect(Self.decode(text)?.bytes == foundation, "\(text)")
            #expect(Self.decode(text)?.isCanonical == false, "\(text)")
        }
        #expect(Self.decode("QQ==")?.isCanonical == true)
        #expect(Self.decode("QUI=")?.isCanonical == true)
    }

    @Test("refuses what Foundation decodes to other bytes, and what it refuses", arguments: [
        "QU=D", "====", "Q===", "QQ==QQ==", "QQ=", "QQ", "Q", "QQ===", "=QQQ", "QUJD=", "QUJ-", "QUJ_", "QUJ.", "QUJ\u{0}",
        "QUJ\u{80}", "QUJDQQ=A",
    ])
    func refuses(text: String) {
        #expect(Self.decode(text) == nil, "\(text.debugDescription)")
    }

    /// RFC 4648 §4 text: whole groups of four, the alphabet, and `=` only as the last one or two characters.
    static func isStrictForm(_ text: [UInt8]) -> Bool {
        guard text.count % 4 == 0 else { return false }
        let padding = text.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return text.dropLast(padding).allSatisfy { byte in
            byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || (byte >= 0x30 && byte <= 0x39)
                || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
    }

    @Test("agrees with Foundation on RFC 4648 text and decodes nothing Foundation refuses, whitespace skipped or not",
          arguments: [false, true])
    func differential(skippingWhitespace: Bool) {
        // Seeded: the same texts on every run, so that a failure can be reproduced.
        var generator = SplitMix64(state: skippingWhitespace ? 2 : 1)
        let symbols = Array("ABCDQRSTwxyz0189+/====  \n".utf8)
        var (decoded, strict) = (0, 0)
        for _ in 0..<60_000 {
            let count = Int.random(in: 1...16, using: &generator)
            let text = (0..<count).map { _ in symbols.randomElement(using: &generator) ?? 0x41 }
            let label = String(decoding: text, as: UTF8.self).debugDescription
            // What the service did before: whitespace removed, then Foundation's decoder.
            let compact = skippingWhitespace ? text.filter { $0 != 0x20 && $0 != 0x0A } : text
            let foundation = Data(base64Encoded: Data(compact)).map { Array($0) }
            let ours = text.withUnsafeBufferPointer { Base64Decoder.decode($0, skippingWhitespace: skippingWhitespace) }
            if let ours, !ours.bytes.isEmpty {
                decoded += 1
                #expect(foundation == ours.bytes, "\(label)")
            }
            if Self.isStrictForm(compact) {
                strict += 1
                #expect(ours?.bytes == foundation, "\(label)")
            }
        }
        #expect(decoded > 500)
        #expect(strict > 500)
    }
}
