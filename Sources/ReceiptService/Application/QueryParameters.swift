import HummingbirdCore
import struct Foundation.URLComponents

/// A request's query as the mirror and the entitlements endpoint read it: every parameter by name, values in the
/// order given, names and values percent-decoded alike (Hummingbird decodes values only: `product%54ype` would
/// otherwise be a name no endpoint knows, and a filter silently dropped). A `+` is kept, as RFC 3986 says.
enum QueryParameters {
    static func of(_ uri: URI) -> [String: [String]] {
        var query: [String: [String]] = [:]
        guard let raw = uri.query, !raw.isEmpty else { return query }
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decoded(parts[0])
            let value = parts.count > 1 ? Self.decoded(parts[1]) : ""
            query[name, default: []].append(value)
        }
        return query
    }

    /// `text` percent-decoded; text that does not decode (a lone `%`, bytes that are not UTF-8) is kept as given,
    /// so that the endpoint refuses it as the value it is.
    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
