/// Sends one HTTP request and hands back the answer: what ``AppStoreServerAPIClient`` talks to Apple through.
///
/// ``AsyncHTTPTransport`` is the real one; tests script answers with their own. An implementation must give up after
/// `timeout` — the whole exchange, connection, head and body, not only until the head arrives — and refuse a body
/// over `maximumResponseSize` bytes without reading it all.
public protocol HTTPTransport: Sendable {
    /// Sends `request`.
    /// - Throws: ``HTTPTransportFailure`` when no complete answer arrived.
    func send(
        _ request: HTTPTransportRequest,
        timeout: Duration,
        maximumResponseSize: Int
    ) async throws(HTTPTransportFailure)
        -> HTTPTransportResponse
}
