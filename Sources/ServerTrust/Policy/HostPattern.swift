/// A pattern naming the hosts a policy applies to: `api.example.com` (exactly), `*.example.com` (one label
/// below), `**.example.com` (any depth below, and `example.com` itself), or an IP address (exactly).
///
/// Patterns and hosts are compared in their canonical form: lowercase, without a trailing dot, international
/// names as IDNA `xn--` labels, IPv4 in dotted decimal and IPv6 in RFC 5952 text. So `bücher.example` and
/// `xn--bcher-kva.example`, or `127.1` and `127.0.0.1`, are the same host to a pattern.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case exact
        case oneLabel
        case anyDepth
    }

    let kind: Kind
    let domain: CanonicalHost

    /// Parses a pattern.
    /// - Throws: ``ServerTrustError`` with ``ServerTrustError/Code/malformedHostPattern``.
    public init(_ text: String) throws(ServerTrustError) {
        let (kind, rest): (Kind, Substring)
        if text.hasPrefix("**.") {
            (kind, rest) = (.anyDepth, text.dropFirst(3))
        } else if text.hasPrefix("*.") {
            (kind, rest) = (.oneLabel, text.dropFirst(2))
        } else {
            (kind, rest) = (.exact, text[...])
        }
        guard !rest.contains("*"), let domain = CanonicalHost(String(rest)), kind == .exact || !domain.isAddress
        else {
            throw ServerTrustError(.malformedHostPattern, "'\(text)' is not host, *.domain, **.domain or an IP address")
        }
        self.kind = kind
        self.domain = domain
    }

    public var description: String {
        switch self.kind {
        case .exact: return self.domain.text
        case .oneLabel: return "*." + self.domain.text
        case .anyDepth: return "**." + self.domain.text
        }
    }

    /// Whether the pattern covers `host` (any spelling of it; a string that is no host matches nothing).
    public func matches(_ host: String) -> Bool {
        guard let host = CanonicalHost(host) else { return false }
        return self.matches(host)
    }

    func matches(_ host: CanonicalHost) -> Bool {
        switch self.kind {
        case .exact:
            return host == self.domain
        case .oneLabel:
            guard host.kind == .dns, host.text.hasSuffix("." + self.domain.text) else { return false }
            let label = host.text.dropLast(self.domain.text.count + 1)
            return !label.isEmpty && !label.contains(".")
        case .anyDepth:
            return host.kind == .dns && (host == self.domain || host.text.hasSuffix("." + self.domain.text))
        }
    }

    /// How specific the pattern is, for longest-match: exact beats wildcards; longer domains beat shorter.
    var specificity: (Int, Int) {
        let kindRank: Int
        switch self.kind {
        case .exact: kindRank = 2
        case .oneLabel: kindRank = 1
        case .anyDepth: kindRank = 0
        }
        return (self.domain.text.count, kindRank)
    }
}
