public import AppStoreJWS
public import _ReceiptKitShared

/// An error from ``AppStoreServerAPIClient``: a configuration or key it cannot use, an answer from Apple that is not a
/// success, an answer it cannot read, or signed data in an answer that does not verify.
///
/// Branch on ``code``; for Apple's own error responses, ``apiErrorCode`` carries Apple's `errorCode` and
/// ``httpStatus`` the status. Two errors are equal when their codes are equal. No error ever carries the private key.
public struct AppStoreServerAPIError: CodedError {
    public let code: Code, reason: String
    /// The HTTP status of the answer, when there was one.
    public let httpStatus: Int?
    /// Apple's `errorCode`, when the answer carried one.
    public let apiErrorCode: APIErrorCode?
    /// Apple's `errorMessage`, when the answer carried one.
    public let errorMessage: String?
    /// The last `Retry-After` Apple asked for, for ``Code/rateLimited``.
    public let retryAfter: Duration?
    /// Why signed data did not verify, for ``Code/untrustedSignedData``.
    public let verificationFailures: [JWSVerificationFailure]

    package init(
        _ code: Code,
        _ reason: String,
        httpStatus: Int? = nil,
        apiErrorCode: APIErrorCode? = nil,
        errorMessage: String? = nil,
        retryAfter: Duration? = nil,
        verificationFailures: [JWSVerificationFailure] = []
    ) {
        (self.code, self.reason) = (code, reason)
        self.httpStatus = httpStatus
        self.apiErrorCode = apiErrorCode
        self.errorMessage = errorMessage
        self.retryAfter = retryAfter
        self.verificationFailures = verificationFailures
    }

    /// Whether asking again later can succeed: rate limited, a server error, unreachable, or an Apple error code Apple
    /// documents as retryable.
    public var isRetryable: Bool {
        switch self.code {
        case .rateLimited, .serverError, .unreachable: return true
        case .apiError: return self.apiErrorCode?.isRetryable ?? false
        default: return false
        }
    }

    /// The kind of an ``AppStoreServerAPIError``. New codes may be added in minor releases, so switch with a `default`.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The configuration cannot be used: an empty identifier, a base URL that is not `https` (plain `http` only to
        /// `127.0.0.1` or `[::1]`), a token lifetime over 60 minutes, a timeout, total time, page or concurrency bound
        /// that is not positive, or a request date out of range.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The private key is not a PEM PKCS#8 (`.p8`) P-256 key. The key's text is never repeated in the reason.
        public static let invalidPrivateKey = Code("invalid_private_key")
        /// Apple answered with an error response (`errorCode`, `errorMessage`) other than 401, 403, 429 or 5xx.
        public static let apiError = Code("api_error")
        /// HTTP 401: Apple refused the bearer token (the key id, the issuer id or the signature).
        public static let unauthorized = Code("unauthorized")
        /// HTTP 403: the key is not allowed for this app or this endpoint.
        public static let forbidden = Code("forbidden")
        /// HTTP 429 still after the retries the ``RetryPolicy`` allows; ``retryAfter`` holds Apple's last ask.
        public static let rateLimited = Code("rate_limited")
        /// HTTP 5xx still after the retries.
        public static let serverError = Code("server_error")
        /// No answer after the retries: the connection failed or a request timed out.
        public static let unreachable = Code("unreachable")
        /// The answer is not the JSON the endpoint documents, or a success status the endpoint never answers.
        public static let malformedResponse = Code("malformed_response")
        /// The answer's body is over ``AppStoreServerAPIConfiguration/maximumResponseSize``.
        public static let responseTooLarge = Code("response_too_large")
        /// A signed value in the answer is not a well-formed App Store JWS.
        public static let malformedSignedData = Code("malformed_signed_data")
        /// A signed value in the answer failed verification; ``verificationFailures`` says why.
        public static let untrustedSignedData = Code("untrusted_signed_data")
        /// The calling task was cancelled.
        public static let cancelled = Code("cancelled")
    }
}
