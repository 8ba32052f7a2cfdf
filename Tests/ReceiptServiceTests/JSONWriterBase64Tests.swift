import Foundation
import Testing
import _ReceiptKitShared

@Suite("JSONWriter Base64")
struct JSONWriterBase64Tests {
    @Test("writes Foundation's Base64 text as a string value, for every length and padding")
    func matchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = (0..<200).map { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        inputs.append(Array(0...255))
        inputs.append([UInt8](repeating: 0xFF, count: 6_627))
        for input in inputs {
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
