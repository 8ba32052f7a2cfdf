/// Why the server closed a connection on its own account: the `reason` label of
/// `receiptkit_connections_closed_total` is its raw value.
enum ConnectionCloseReason: String, CaseIterable, Sendable {
    /// Its request line and headers did not arrive within the header-read timeout.
    case headerTimeout = "header_timeout"
    /// It was accepted over ``VerifyReceiptConfiguration/maximumConnections``.
    case connectionLimit = "connection_limit"
    /// Its body did not arrive within the request timeout.
    case bodyTimeout = "body_timeout"
    /// It was accepted over ``VerifyReceiptConfiguration/maximumConnectionsPerAddress`` from its peer's address.
    case addressLimit = "address_limit"
    /// Its body paused longer than ``VerifyReceiptConfiguration/bodyStallTimeout``, or borrowed from the body
    /// reserve and did not finish within it.
    case bodyStalled = "body_stalled"
    /// Its client did not read a response for ``VerifyReceiptConfiguration/responseWriteTimeout``.
    case writeStalled = "write_stalled"
    /// It idled the longest when a new connection arrived at ``VerifyReceiptConfiguration/maximumConnections``.
    case idleReclaimed = "idle_reclaimed"
}
