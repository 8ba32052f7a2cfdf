import Foundation
import Testing
import _ReceiptKitShared

@Suite("JSONWriter Base64")
struct JSONWriterBase64Tests {
    @Test("writes Foundation's Base64 text as a string value, for every length and padding")
    func matchesFoundation() {
        for input in Base64DecoderTests.samples() {
            var json = JSONWriter()
            json.beginArray()
            json.base64String(input)
            json.base64String([0xFB])
            json.endArray()
            let expected = #"[""# + Data(input).base64EncodedString() + #"","+w=="]"#
            #expect(String(decoding: json.bytes, as: UTF8.self) == expected, "\(input.count) bytes")
        }
    }
}
