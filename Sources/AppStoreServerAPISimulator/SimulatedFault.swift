/// What ``AppStoreServerSimulator`` does instead of answering, when a test scripts it with
/// ``SimulatedAppStore/inject(_:for:times:)``: an Apple error, a rate limit, a server failure, a slow or held
/// answer, or a dropped connection.
public struct SimulatedFault: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case error(SimulatedAPIError, retryAfterSeconds: Int?)
        case delay(Duration)
        case hold(SimulatedGate)
        case closeConnection
    }

    let kind: Kind

    /// Answers with an Apple error: its status and `{"errorCode":…,"errorMessage":…}` (any status, 403 included).
    public static func appleError(_ error: SimulatedAPIError) -> Self {
        Self(kind: .error(error, retryAfterSeconds: nil))
    }

    /// Answers 429 with `Retry-After: seconds` and Apple's RateLimitExceededError body.
    public static func rateLimited(retryAfterSeconds seconds: Int = 1) -> Self {
        Self(kind: .error(.rateLimitExceeded, retryAfterSeconds: seconds))
    }

    /// Answers a server failure: `status` (500 by default; 502, 503 …) with Apple's GeneralInternalError body.
    public static func serverError(status: Int = 500) -> Self {
        var error = SimulatedAPIError.generalInternal
        error.status = status
        return Self(kind: .error(error, retryAfterSeconds: nil))
    }

    /// Waits `duration` (wall time, so that a client's timeout fires), then answers as usual.
    public static func delay(_ duration: Duration) -> Self {
        Self(kind: .delay(duration))
    }

    /// Holds the request at `gate` until the test opens it (or the gate's limit passes), then answers as usual:
    /// Apple still answering while the test checks what the client did meanwhile.
    public static func hold(_ gate: SimulatedGate) -> Self {
        Self(kind: .hold(gate))
    }

    /// Closes the connection without answering.
    public static let closeConnection = Self(kind: .closeConnection)
}
