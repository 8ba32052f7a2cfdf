import AppStoreJWS

/// What an endpoint of ``AppStoreServerSimulator`` answers: a status, a body (JSON or empty) and, for 429, the
/// seconds of `Retry-After`.
struct SimulatorAnswer: Sendable {
    var status: Int
    var body: [UInt8]
    var retryAfterSeconds: Int?

    static func json(_ members: [String: JSONValue], status: Int = 200) -> Self {
        Self(status: status, body: JSONValue.object(members).serialized, retryAfterSeconds: nil)
    }

    static func error(_ error: SimulatedAPIError, retryAfterSeconds: Int? = nil) -> Self {
        Self(status: error.status, body: error.body, retryAfterSeconds: retryAfterSeconds)
    }

    /// A status with no body: Apple's 401, 202 for consumption information, 200 for an app account token.
    static func empty(_ status: Int) -> Self {
        Self(status: status, body: [], retryAfterSeconds: nil)
    }
}
