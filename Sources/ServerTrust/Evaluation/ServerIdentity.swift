/// Who the client meant to reach: a DNS name or an IP address.
public struct ServerIdentity: Sendable, Hashable, CustomStringConvertible {
    public let hostname: String?
    public let ipAddress: String?

    /// A DNS host name.
    public static func host(_ name: String) -> ServerIdentity { ServerIdentity(hostname: name, ipAddress: nil) }
    /// An IPv4 or IPv6 address literal.
    public static func ip(_ address: String) -> ServerIdentity { ServerIdentity(hostname: nil, ipAddress: address) }

    public var description: String { self.hostname ?? self.ipAddress ?? "-" }
}
