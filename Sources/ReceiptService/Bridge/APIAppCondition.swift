import AppStoreServerAPI

/// How Apple last answered an app's App Store Server API calls, as `/health` and the service's warnings say it:
/// the raw value is what `/health` writes.
enum APIAppCondition: String, Sendable, CaseIterable {
    /// Apple answered, and every signed value verified.
    case answering
    /// Apple refused the In-App Purchase key (HTTP 401 or 403): the key, its issuer or its app is wrong or revoked.
    case keyRefused = "key_refused"
    /// Apple rate-limited the app (HTTP 429).
    case rateLimited = "rate_limited"
    /// Apple answered with a server error, or not at all.
    case appleUnavailable = "apple_unavailable"
    /// Apple's answer held signed data that did not verify.
    case untrustedAnswers = "untrusted_answers"

    /// What a failed call says about the app; `nil` for a failure about one transaction (an unknown id), which says
    /// nothing about the app.
    init?(_ error: AppStoreServerAPIError) {
        switch error.code {
        case .unauthorized, .forbidden: self = .keyRefused
        case .rateLimited: self = .rateLimited
        case .serverError, .unreachable, .malformedResponse, .responseTooLarge: self = .appleUnavailable
        case .untrustedSignedData, .malformedSignedData: self = .untrustedAnswers
        default: return nil
        }
    }

    /// The warning logged when an app enters this condition (`nil` for ``answering``).
    var warning: String? {
        switch self {
        case .answering: nil
        case .keyRefused:
            "Apple refused the App Store Server API key: check the key id, issuer id and .p8 file in App Store Connect"
        case .rateLimited: "Apple rate-limited the App Store Server API"
        case .appleUnavailable: "the App Store Server API gives no usable answer (server error or unreachable)"
        case .untrustedAnswers: "the App Store Server API answered with signed data that does not verify"
        }
    }
}
