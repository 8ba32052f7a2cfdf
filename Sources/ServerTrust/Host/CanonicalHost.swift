import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one spelling of a host that policy lookup and identity checks use, so that another spelling of the same
/// host (`API.Example.com.`, `bücher.de` and `xn--bcher-kva.de`, `127.1` and `127.0.0.1`, `[::1]` and
/// `0:0:0:0:0:0:0:1`) cannot fall through to another policy.
///
/// - DNS names: compatibility-normalised (NFKC) and lowercased, the ideographic full stops read as dots, one
///   trailing dot dropped, each non-ASCII label encoded as IDNA's `xn--` Punycode (RFC 3492); labels of 1–63
///   characters, 253 in all.
/// - IPv4: the WHATWG URL host parser's forms (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`, `2130706433`) as dotted
///   decimal. A name whose last label is a number is an address or nothing, as browsers treat it.
/// - IPv6: RFC 5952 text (`2001:db8::1`), brackets optional; zone identifiers are refused.
struct CanonicalHost: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case dns
        case ipv4
        case ipv6
    }

    let kind: Kind
    /// The canonical text.
    let text: String

    var description: String { self.text }
    var isAddress: Bool { self.kind != .dns }

    static let maximumLength = 253

    /// Canonicalises `input`, or returns `nil` when it is not a host name or address.
    init?(_ input: String) {
        guard !input.isEmpty, input.utf8.count <= 4 * Self.maximumLength else { return nil }
        if input.hasPrefix("[") {
            guard input.hasSuffix("]"), let address = Self.ipv6(String(input.dropFirst().dropLast())) else {
                return nil
            }
            (self.kind, self.text) = (.ipv6, address)
            return
        }
        if input.utf8.contains(UInt8(ascii: ":")) {
            guard let address = Self.ipv6(input) else { return nil }
            (self.kind, self.text) = (.ipv6, address)
            return
        }
        var name: String
        if input.utf8.allSatisfy({ $0 < 0x80 }) {
            // The common case, without Unicode normalisation: ASCII lowercase, and no copy when already lowercase.
            name =
                input.utf8.contains(where: { (0x41...0x5A).contains($0) })
                ? String(decoding: input.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
                : input
            if name.hasSuffix(".") { name.removeLast() }
            if let valid = Self.validASCIIName(name) {
                (self.kind, self.text) = (.dns, valid)
                return
            }
        } else {
            name = input.precomposedStringWithCompatibilityMapping.lowercased()
            name = String(name.unicodeScalars.map { Self.fullStops.contains($0) ? "." : Character($0) })
            if name.hasSuffix(".") { name.removeLast() }
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last, !name.isEmpty else { return nil }
        if Self.isNumeric(last) {
            guard let address = Self.ipv4(labels) else { return nil }
            (self.kind, self.text) = (.ipv4, address)
            return
        }
        var encoded: [String] = []
        for label in labels {
            guard let ascii = Self.asciiLabel(label) else { return nil }
            encoded.append(ascii)
        }
        let text = encoded.joined(separator: ".")
        guard text.utf8.count <= Self.maximumLength else { return nil }
        (self.kind, self.text) = (.dns, text)
    }

    /// `name` itself when it is an ASCII DNS name in canonical form whose last label is not a number: labels of
    /// 1–63 host characters, 253 in all. Checked in one pass, without splitting; anything else takes the general path.
    private static func validASCIIName(_ name: String) -> String? {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else { return nil }
        var labelLength = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return nil }
                labelLength = 0
                continue
            }
            guard Self.isHostByte(byte) else { return nil }
            labelLength += 1
            guard labelLength <= 63 else { return nil }
        }
        let lastLabel = name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? name[...]
        guard labelLength > 0, !Self.isNumeric(lastLabel) else { return nil }
        return name
    }

    /// U+3002 IDEOGRAPHIC FULL STOP, U+FF0E FULLWIDTH FULL STOP, U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP (UTS #46).
    private static let fullStops: Set<Unicode.Scalar> = ["\u{3002}", "\u{FF0E}", "\u{FF61}"]

    private static func asciiLabel(_ label: Substring) -> String? {
        guard !label.isEmpty else { return nil }
        let scalars = Array(label.unicodeScalars)
        let ascii: String
        if scalars.allSatisfy(\.isASCII) {
            ascii = String(label)
        } else {
            guard scalars.count <= 63, let code = Punycode.encode(scalars) else { return nil }
            ascii = "xn--" + code
        }
        guard ascii.utf8.count <= 63,
            ascii.utf8.allSatisfy({ Self.isHostByte($0) })
        else { return nil }
        return ascii
    }

    /// Letters, digits, hyphen and underscore (seen in real service names).
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    /// Whether a label is a number in the WHATWG sense: decimal digits, or `0x` followed by hex digits.
    private static func isNumeric(_ label: Substring) -> Bool {
        guard !label.isEmpty else { return false }
        if label.hasPrefix("0x") {
            return label.dropFirst(2).allSatisfy(\.isHexDigit)
        }
        return label.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The WHATWG URL Standard's IPv4 parser: up to four parts, each decimal, octal (leading 0) or hex (0x), the
    /// last filling the remaining bytes.
    private static func ipv4(_ labels: [Substring]) -> String? {
        guard (1...4).contains(labels.count) else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            let digits: Substring
            let radix: Int
            if label.hasPrefix("0x") {
                (digits, radix) = (label.dropFirst(2), 16)
            } else if label.count > 1, label.hasPrefix("0") {
                (digits, radix) = (label.dropFirst(), 8)
            } else {
                (digits, radix) = (label, 10)
            }
            guard digits.count <= 12, digits.allSatisfy({ $0.hexDigitValue.map { $0 < radix } ?? false }) else {
                return nil
            }
            if digits.isEmpty {
                numbers.append(0)
                continue
            }
            guard let value = UInt64(digits, radix: radix) else { return nil }
            numbers.append(value)
        }
        guard let last = numbers.last, numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let remainingBits = UInt64(8 * (5 - numbers.count))
        guard last < (UInt64(1) << remainingBits) else { return nil }
        var address = last
        for (index, part) in numbers.dropLast().enumerated() {
            address |= part << UInt64(8 * (3 - index))
        }
        return (0..<4).map { String((address >> UInt64(8 * (3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    /// The address in network byte order (4 or 16 bytes), as an iPAddress SAN holds it; `nil` for a DNS name.
    var addressBytes: [UInt8]? {
        switch self.kind {
        case .dns:
            return nil
        case .ipv4:
            var address = in_addr()
            guard inet_pton(AF_INET, self.text, &address) == 1 else { return nil }
            return withUnsafeBytes(of: &address) { Array($0) }
        case .ipv6:
            var address = in6_addr()
            guard inet_pton(AF_INET6, self.text, &address) == 1 else { return nil }
            return withUnsafeBytes(of: &address) { Array($0) }
        }
    }

    private static func ipv6(_ text: String) -> String? {
        guard !text.utf8.contains(UInt8(ascii: "%")), text.utf8.count < 64 else { return nil }
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
