/// How OCSP requests leave the process: the caller's HTTP client.
///
/// POST `request` (DER, `Content-Type: application/ocsp-request`) to `uri` and return the response body (DER,
/// `application/ocsp-response`); throw when the responder cannot be reached or does not answer 200 — that is
/// reported as the retryable `revocation_check_unavailable`. Do not set a deadline: the check stops waiting after
/// 10 seconds itself.
public protocol OCSPTransport: Sendable {
    /// The responder's DER response to the DER `request`.
    func response(to request: [UInt8], from uri: String) async throws -> [UInt8]
}
