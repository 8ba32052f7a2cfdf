import Foundation
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

    @Test("never decodes what Foundation refuses, nor to other bytes (random text over the alphabet, = and space)")
    func differential() {
        var generator = SystemRandomNumberGenerator()
        let symbols = Array("ABCDQRSTwxyz0189+/= \n".utf8)
        var decoded = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in symbols.randomElement(using: &generator) ?? 0x41 }
            guard let ours = text.withUnsafeBufferPointer({ Base64Decoder.decode($0, skippingWhitespace: false) }) else {
                continue
            }
            decoded += 1
            #expect(Data(base64Encoded: Data(text)).map { Array($0) } == ours.bytes, "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(decoded > 100)
    }
}
