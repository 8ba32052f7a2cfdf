/// One request ``AppStoreServerSimulator`` received, as its log keeps it (``SimulatedAppStore/requests``): what a
/// test asserts to say "no call was made" or "every page was fetched".
public struct SimulatedRequest: Sendable, Hashable {
    /// The endpoint the path matched.
    public let endpoint: SimulatedEndpoint
    /// The HTTP method (`GET`, `POST`, `PUT`).
    public let method: String
    /// The path with its query, as sent.
    public let uri: String
    /// The HTTP status answered; 0 when the connection was closed instead.
    public let status: Int
    /// Why the bearer token was refused (a 401), `nil` when it was accepted or not looked at: `missing`,
    /// `malformed`, `algorithm`, `type`, `unknown_key`, `signature`, `issuer`, `audience`, `bundle`,
    /// `issued_in_future`, `expired`, `lifetime_too_long`.
    public let tokenRefusal: String?
}
