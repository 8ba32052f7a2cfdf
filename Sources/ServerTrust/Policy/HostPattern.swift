/// A pattern naming the hosts a policy applies to: `api.example.com` (exactly), `*.example.com` (one label
/// below), `**.example.com` (any depth below, and `example.com` itself). Matching ignores case and a trailing dot.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case exact
        case oneLabel
        case anyDepth
    }

    let kind: Kind
    let domain: String

    /// Parses a pattern.
    /// - Throws: ``ServerTrustError`` with ``ServerTrustError/Code/malformedHostPattern``.
    public init(_ text: String) throws(ServerTrustError) {
        let lowered = Self.normalise(text)
        let (kind, domain): (Kind, String)
        if lowered.hasPrefix("**.") {
            (kind, domain) = (.anyDepth, String(lowered.dropFirst(3)))
        } else if lowered.hasPrefix("*.") {
            (kind, domain) = (.oneLabel, String(lowered.dropFirst(2)))
        } else {
            (kind, domain) = (.exact, lowered)
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !domain.isEmpty, !labels.contains(where: \.isEmpty), !domain.contains("*") else {
            throw ServerTrustError(.malformedHostPattern, "'\(text)' is not host, *.domain or **.domain")
        }
        self.kind = kind
        self.domain = domain
    }

    public var description: String {
        switch self.kind {
        case .exact: return self.domain
        case .oneLabel: return "*." + self.domain
        case .anyDepth: return "**." + self.domain
        }
    }

    /// Whether the pattern covers `host`.
    public func matches(_ host: String) -> Bool {
        let host = Self.normalise(host)
        switch self.kind {
        case .exact:
            return host == self.domain
        case .oneLabel:
            guard host.hasSuffix("." + self.domain) else { return false }
            let label = host.dropLast(self.domain.count + 1)
            return !label.isEmpty && !label.contains(".")
        case .anyDepth:
            return host == self.domain || host.hasSuffix("." + self.domain)
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
        return (self.domain.count, kindRank)
    }

    static func normalise(_ host: String) -> String {
        var lowered = host.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        return lowered
    }
}
