/// Where `GET /health` and `GET /metrics` are served when the `metrics_listen` setting names a listener of their
/// own (`host:port`): a load balancer's probe and Prometheus reach them there, and the main listener — the one a
/// proxy forwards — answers 404 for both, so what the metrics say (an App Store Server API key refused, say) never
/// rides on the public routes.
public struct ProbeListener: Sendable, Hashable {
    /// The address to bind.
    public var host: String
    /// The port to bind (0 picks a free one).
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port` (`[::1]:9090` for an IPv6 address), or `nil` when `text` is not one.
    public init?(_ text: String) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let number = Int(port), (0...65_535).contains(number), port.allSatisfy(\.isNumber) else {
            return nil
        }
        self.init(host: String(host), port: number)
    }

    /// `host:port` as the setting spells it.
    public var description: String { "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.port)" }
}
