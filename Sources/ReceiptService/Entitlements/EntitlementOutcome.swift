/// How an entitlements request ended, and its HTTP status.
enum EntitlementOutcome: String, Sendable {
    /// 200: the answer.
    case answered
    /// 400: a parameter missing, repeated, unknown or not as documented.
    case malformed
    /// 401: no admin token, or not one configured.
    case unauthorized
    /// 404: the ledger knows no such customer of the app in the environment.
    case notFound = "not_found"
    /// 503: the ledger did not answer (retryable).
    case unavailable
    /// 500: the ledger failed otherwise.
    case failed

    var httpStatus: Int {
        switch self {
        case .answered: return 200
        case .malformed: return 400
        case .unauthorized: return 401
        case .notFound: return 404
        case .unavailable: return 503
        case .failed: return 500
        }
    }
}
