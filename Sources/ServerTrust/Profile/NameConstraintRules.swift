import Foundation
import SwiftASN1
import X509

/// RFC 5280 §4.2.1.10 name constraints, for every name form a server certificate can carry: dNSName, iPAddress,
/// directoryName (the subject and SAN entries; RDN-sequence prefix, RDNs matched as §7.1 says), rfc822Name and URI
/// (by host). swift-certificates' own policy refuses every directoryName constraint and applies constraints to
/// self-issued intermediates; these rules do neither. A name of a form that a constraint names but nothing here can
/// compare (otherName, x400Address, ediPartyName, registeredID) fails, as RFC 5280 requires.
enum NameConstraintRules {
    /// Whether a subtree is a constraint RFC 5280 allows: a DNS constraint is a host name without wildcard or leading
    /// period, an IP constraint an address and a contiguous mask (8 or 32 octets), an email constraint a mailbox,
    /// host or `.domain`, a URI constraint a host or `.domain`.
    static func isWellFormed(_ subtree: GeneralName) -> Bool {
        switch subtree {
        case .dnsName(let name):
            return name.isEmpty || DNSName.labels(of: name, allowingWildcard: false) != nil
        case .ipAddress(let octets):
            let bytes = Array(octets.bytes)
            guard bytes.count == 8 || bytes.count == 32 else { return false }
            return Self.isContiguousMask(bytes[(bytes.count / 2)...])
        case .rfc822Name(let constraint):
            let parts = constraint.split(separator: "@", omittingEmptySubsequences: false)
            switch parts.count {
            case 1:
                let domain = constraint.hasPrefix(".") ? String(constraint.dropFirst()) : constraint
                return DNSName.labels(of: domain, allowingWildcard: false) != nil
            case 2:
                return !parts[0].isEmpty && DNSName.labels(of: String(parts[1]), allowingWildcard: false) != nil
            default:
                return false
            }
        case .uniformResourceIdentifier(let constraint):
            let host = constraint.hasPrefix(".") ? String(constraint.dropFirst()) : constraint
            return DNSName.labels(of: host, allowingWildcard: false) != nil
        default:
            return true
        }
    }

    /// Whether every name in `names` lies inside the permitted subtrees of its form (when there are any) and
    /// outside every excluded subtree.
    static func permits(_ constraints: NameConstraints, names: [GeneralName]) -> Bool {
        for name in names {
            let form = Self.form(name)
            var permittedOfForm = false
            var permitted = false
            for subtree in constraints.permittedSubtrees where Self.form(subtree) == form {
                permittedOfForm = true
                if Self.contains(subtree, name, excluding: false) {
                    permitted = true
                    break
                }
            }
            if permittedOfForm, !permitted { return false }
            for subtree in constraints.excludedSubtrees where Self.form(subtree) == form {
                if Self.contains(subtree, name, excluding: true) { return false }
            }
        }
        return true
    }

    /// Whether `subtree` covers `name` (same form). A presented name that is malformed is inside no permitted
    /// subtree and inside every excluded one: it can never slip through.
    private static func contains(_ subtree: GeneralName, _ name: GeneralName, excluding: Bool) -> Bool {
        switch (subtree, name) {
        case (.dnsName(let constraint), .dnsName(let presented)):
            guard let within = Self.dnsName(presented, within: constraint, excluding: excluding) else { return excluding }
            return within
        case (.ipAddress(let constraint), .ipAddress(let presented)):
            let range = Array(constraint.bytes)
            let address = Array(presented.bytes)
            guard address.count == 4 || address.count == 16 else { return excluding }
            guard range.count == 2 * address.count else { return false }
            for index in address.indices where address[index] & range[address.count + index] != range[index] & range[address.count + index] {
                return false
            }
            return true
        case (.directoryName(let constraint), .directoryName(let presented)):
            // RFC 5280 §7.1: within the subtree when its RDNs match the presented name's first ones, in order.
            return presented.count >= constraint.count && zip(constraint, presented).allSatisfy(Self.relativeNamesMatch)
        case (.rfc822Name(let constraint), .rfc822Name(let presented)):
            let parts = presented.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, let domain = DNSName.labels(of: String(parts[1]), allowingWildcard: false)
            else { return excluding }
            if constraint.contains("@") {
                let expected = constraint.split(separator: "@", omittingEmptySubsequences: false)
                return expected.count == 2 && expected[0] == parts[0]
                    && DNSName.labels(of: String(expected[1]), allowingWildcard: false) == domain
            }
            return Self.host(domain, within: constraint)
        case (.uniformResourceIdentifier(let constraint), .uniformResourceIdentifier(let presented)):
            guard let host = Self.uriHost(presented), let labels = DNSName.labels(of: host, allowingWildcard: false) else {
                return excluding
            }
            return Self.host(labels, within: constraint)
        default:
            // A form nothing here compares: a name of that form under such a constraint fails either way.
            return excluding
        }
    }

    /// RFC 5280 §7.1: two RDNs match when each attribute of either matches one of the other: the same type, and
    /// values that are equal or, both strings (PrintableString, UTF8String or IA5String), equal once prepared as
    /// RFC 4518 prepares them for caseIgnoreMatch (which §7.1 requires for PrintableString and UTF8String): so a
    /// PrintableString and a UTF8String spelling of one name, or spellings in another case or with other spaces,
    /// match. Any other value compares as encoded.
    private static func relativeNamesMatch(
        _ constraint: RelativeDistinguishedName,
        _ presented: RelativeDistinguishedName
    ) -> Bool {
        if constraint == presented { return true }
        guard constraint.count == presented.count else { return false }
        return constraint.allSatisfy { attribute in presented.contains { Self.attributesMatch(attribute, $0) } }
            && presented.allSatisfy { attribute in constraint.contains { Self.attributesMatch(attribute, $0) } }
    }

    private static func attributesMatch(
        _ first: RelativeDistinguishedName.Attribute,
        _ second: RelativeDistinguishedName.Attribute
    ) -> Bool {
        guard first.type == second.type else { return false }
        if first.value == second.value { return true }
        guard let one = String(first.value), let other = String(second.value) else { return false }
        return Self.prepared(one) == Self.prepared(other)
    }

    /// RFC 4518 §2 as far as it changes a comparison: compatibility normalisation (NFKC), lower case, and
    /// insignificant space (leading, trailing, and runs of white space, §2.6.1) reduced to single separators.
    private static func prepared(_ value: String) -> [Substring] {
        value.precomposedStringWithCompatibilityMapping.lowercased().split(whereSeparator: \.isWhitespace)
    }

    /// `nil` when the presented name is no valid DNS name.
    private static func dnsName(_ presented: String, within constraint: String, excluding: Bool) -> Bool? {
        guard let labels = DNSName.labels(of: presented, allowingWildcard: true) else { return nil }
        guard !constraint.isEmpty else { return true }
        guard let base = DNSName.labels(of: constraint, allowingWildcard: false) else { return excluding }
        if labels.first == "*" {
            let rest = Array(labels.dropFirst())
            // A wildcard is permitted only if everything it can match is; it is excluded if anything it can match is.
            if rest.hasSuffix(base) { return true }
            return excluding && base.count == rest.count + 1 && base.hasSuffix(rest)
        }
        return labels.hasSuffix(base)
    }

    /// An email or URI host against `host` (exactly) or `.domain` (strictly below it).
    private static func host(_ labels: [String], within constraint: String) -> Bool {
        if constraint.hasPrefix(".") {
            guard let base = DNSName.labels(of: String(constraint.dropFirst()), allowingWildcard: false) else { return false }
            return labels.count > base.count && labels.hasSuffix(base)
        }
        return DNSName.labels(of: constraint, allowingWildcard: false) == labels
    }

    /// The host of `scheme://[userinfo@]host[:port][/…]`, or `nil`.
    private static func uriHost(_ uri: String) -> String? {
        guard let separator = uri.range(of: "://") else { return nil }
        var authority = uri[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.hasPrefix("[") else { return nil }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : String(host)
    }

    private static func isContiguousMask(_ mask: ArraySlice<UInt8>) -> Bool {
        var ended = false
        for byte in mask {
            if ended {
                guard byte == 0 else { return false }
            } else if byte != 0xFF {
                // 1…10…0 within the byte, then zeros.
                guard byte == 0 || (~byte & (~byte &+ 1)) == 0 else { return false }
                ended = true
            }
        }
        return true
    }

    /// The name form (the GeneralName CHOICE arm), for pairing names with the constraints of their form.
    private static func form(_ name: GeneralName) -> Int {
        switch name {
        case .otherName: return 0
        case .rfc822Name: return 1
        case .dnsName: return 2
        case .x400Address: return 3
        case .directoryName: return 4
        case .ediPartyName: return 5
        case .uniformResourceIdentifier: return 6
        case .ipAddress: return 7
        case .registeredID: return 8
        }
    }
}

extension Array where Element == String {
    /// Whether the array ends with `suffix`.
    func hasSuffix(_ suffix: [String]) -> Bool {
        self.count >= suffix.count && self[(self.count - suffix.count)...].elementsEqual(suffix)
    }
}
