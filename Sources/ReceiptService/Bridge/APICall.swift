import AppStoreServerAPI

/// One App Store Server API call the `/verifyReceipt` refresh makes, as `receiptkit_app_store_api_calls_total`
/// labels it: the endpoint, and the outcome.
enum APICall {
    /// The endpoint called: the `endpoint` label is its raw value.
    enum Endpoint: String, CaseIterable, Sendable {
        /// Get Transaction History (every page).
        case transactionHistory = "transaction_history"
        /// Get All Subscription Statuses.
        case subscriptionStatuses = "subscription_statuses"
    }

    /// How a call ended: the `outcome` label is ``label``.
    enum Outcome: Sendable, Hashable {
        /// Apple answered and every signed value verified.
        case success
        /// Signed data in the answer was malformed or did not verify.
        case untrusted
        /// The client's error, by its code (`api_error`, `unauthorized`, `rate_limited`, `unreachable`, …).
        case failed(AppStoreServerAPIError.Code)

        /// A failed call's outcome.
        init(_ error: AppStoreServerAPIError) {
            switch error.code {
            case .untrustedSignedData, .malformedSignedData: self = .untrusted
            default: self = .failed(error.code)
            }
        }

        /// The outcomes a call of the refresh ends with, each exposed from the start (a key or configuration
        /// error stops the start instead, so it is not among them).
        static let known: [Outcome] =
            [.success, .untrusted]
            + [.unauthorized, .forbidden, .rateLimited, .serverError, .unreachable, .apiError, .malformedResponse,
                .responseTooLarge, .cancelled].map { Outcome.failed($0) }

        /// The metric's label.
        var label: String {
            switch self {
            case .success: return "success"
            case .untrusted: return "untrusted"
            case .failed(let code): return code.rawValue
            }
        }
    }
}
