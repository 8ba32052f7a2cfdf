/// Percent-encoding for URLs the package writes: the App Store Server API client's paths and queries, the
/// service's redirects.
package enum PercentEncoding {
    /// RFC 3986 §2.3: everything but the unreserved characters (`A–Z a–z 0–9 - . _ ~`), percent-encoded as UTF-8
    /// with upper-case hexadecimal digits.
    package static func unreserved(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
