/// The rules for a base URL of one's own: `https://host[:port][/path]`, or `http://` to a loopback host only —
/// a bearer token never crosses a network in clear text.
enum BaseURL {
    /// Literal loopback addresses only (`::1` is written `[::1]` in a URL): a name such as `localhost` is whatever the
    /// resolver (or `/etc/hosts`) says it is.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "::1"]

    /// `url` without a trailing `/`.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidConfiguration`` when the rules refuse it.
    static func validated(_ url: String) throws(AppStoreServerAPIError) -> String {
        func refuse(_ why: String) -> AppStoreServerAPIError {
            AppStoreServerAPIError(.invalidConfiguration, "the base URL \(url) \(why)")
        }
        let pieces = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.count == 2 else { throw refuse("has no scheme") }
        let scheme = pieces[0].lowercased()
        let rest = pieces[1]
        guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" || $0 == "\\" || $0.isWhitespace }) else {
            throw refuse("has a query, a fragment, credentials or spaces")
        }
        let authority = rest.prefix { $0 != "/" }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("has an unclosed IPv6 address") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || Self.isPort(after) else { throw refuse("has a malformed port") }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            guard parts.count == 1 || Self.isPort(":" + parts[1]) else { throw refuse("has a malformed port") }
        }
        guard !host.isEmpty else { throw refuse("has no host") }
        switch scheme {
        case "https": break
        case "http":
            guard Self.loopbackHosts.contains(String(host)) else {
                throw refuse("is plain http to a host that is not a loopback address (127.0.0.1, [::1])")
            }
        default: throw refuse("is neither https nor http")
        }
        var trimmed = url
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    private static func isPort(_ text: some StringProtocol) -> Bool {
        let digits = text.dropFirst()
        guard text.first == ":", (1...5).contains(digits.count), digits.allSatisfy(\.isASCII), let port = Int(digits)
        else {
            return false
        }
        return (1...65_535).contains(port)
    }
}
