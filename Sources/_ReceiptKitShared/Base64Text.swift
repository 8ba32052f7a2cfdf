/// Standard base64 (RFC 4648 §4, padded), appended to a byte buffer without an intermediate `String`: the same
/// text as Foundation's `Data.base64EncodedString()`.
package enum Base64Text {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func append(_ data: [UInt8], to output: inout [UInt8]) {
        let alphabet = Self.alphabet
        output.reserveCapacity(output.count + (data.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= data.count {
            let word = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
            output.append(alphabet[Int(word >> 18 & 0x3F)])
            output.append(alphabet[Int(word >> 12 & 0x3F)])
            output.append(alphabet[Int(word >> 6 & 0x3F)])
            output.append(alphabet[Int(word & 0x3F)])
            index += 3
        }
        switch data.count - index {
        case 1:
            let word = UInt32(data[index]) << 16
            output.append(alphabet[Int(word >> 18 & 0x3F)])
            output.append(alphabet[Int(word >> 12 & 0x3F)])
            output.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")])
        case 2:
            let word = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8
            output.append(alphabet[Int(word >> 18 & 0x3F)])
            output.append(alphabet[Int(word >> 12 & 0x3F)])
            output.append(alphabet[Int(word >> 6 & 0x3F)])
            output.append(UInt8(ascii: "="))
        default:
            break
        }
    }
}
