/// Hexadecimal text to bytes, for the libraries' parsers of identifiers and pins.
public enum HexDigits {
    /// The bytes `text` spells in hex digits (either case), or `nil` for an odd count, an empty string or a
    /// non-hex character.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Lowercase hex digits of `bytes`.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
