/// Online revocation checking of an App Store JWS's certificates through OCSP (RFC 6960), as Apple's own libraries
/// do for production data — with the HTTP client injected, so the caller decides how (and whether) it leaves the
/// process.
///
/// Runs once the chain is trusted, on the certificates that name an OCSP responder (Apple's leaf and
/// intermediate do), with swift-certificates' `OCSPVerifierPolicy` in hard-fail mode: the response must be
/// signed by the issuer (or its delegated responder), fresh at the verification's `now`, and answer for the
/// certificate asked about. A verdict is kept while the answers it rests on hold (until their `nextUpdate`), and
/// verifications of the same path share one fetch: ``RevocationCache``, shared by the check's copies.
///
/// A responder that cannot be reached (the transport threw, or the 10-second deadline passed) is
/// `revocation_check_unavailable`, a **retryable** failure (``JWSVerificationResult/isRetryable``): the data may be
/// fine, ask again later. `certificate_revoked` is final; `revocation_status_unknown` and
/// `revocation_check_failed` (an unusable response) are not retryable either.
///
/// ```swift
/// struct HTTPTransport: OCSPTransport {   // POST to uri as application/ocsp-request, with your HTTP client
///     func response(to request: [UInt8], from uri: String) async throws -> [UInt8] { … }
/// }
/// var policy = JWSVerificationPolicy(bundleIdentifier: "com.example.app")
/// policy.revocationCheck = JWSRevocationCheck(transport: HTTPTransport())
/// ```
public struct JWSRevocationCheck: Sendable {
    /// Sends DER OCSP requests to responders and returns their DER responses.
    public var transport: any OCSPTransport
    /// The verdicts kept and the fetches under way.
    public var cache: RevocationCache
    /// Where a verification waits for responders (and for another's fetch), or `nil` to wait where it runs.
    public var waitScope: (any RevocationWaitScope)?

    /// Creates a check that queries responders through `transport`, keeping verdicts in `cache`.
    public init(transport: any OCSPTransport, cache: RevocationCache = RevocationCache()) {
        self.transport = transport
        self.cache = cache
    }
}
