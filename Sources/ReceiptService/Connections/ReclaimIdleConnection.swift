/// The inbound event ``OpenConnections`` sends a connection it gave the place of to a new one: the connection's own
/// ``ConnectionGuard`` closes it on its event loop if it still idles there, or else once the request it has since
/// begun is answered — a request is never cut.
struct ReclaimIdleConnection: Sendable {}
