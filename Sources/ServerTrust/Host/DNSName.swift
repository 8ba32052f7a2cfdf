/// The syntax of DNS names as certificates carry them (dNSName SAN entries and constraints): ASCII letters, digits,
/// `-` and `_`, labels of 1–63 characters, at most 253 in all, one trailing dot ignored. Compared lowercased.
enum DNSName {
    /// The lowercased labels of `name`, or `nil` when it is no DNS name. With `allowingWildcard`, the left-most
    /// label may be exactly `*` (and nothing else holds a `*`).
    static func labels(of name: String, allowingWildcard: Bool) -> [String]? {
        var text = Substring(name)
        if text.hasSuffix(".") { text = text.dropLast() }
        guard !text.isEmpty, text.utf8.count <= CanonicalHost.maximumLength else { return nil }
        var labels: [String] = []
        for label in text.split(separator: ".", omittingEmptySubsequences: false) {
            if label == "*", allowingWildcard, labels.isEmpty {
                labels.append("*")
                continue
            }
            guard (1...63).contains(label.utf8.count), label.utf8.allSatisfy(Self.isNameByte) else { return nil }
            labels.append(label.lowercased())
        }
        return labels
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
