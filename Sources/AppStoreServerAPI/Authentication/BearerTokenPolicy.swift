/// How an ``AppStoreServerAPIClient`` (through its ``BearerTokenProvider``) makes bearer tokens: a new one for every
/// request, as Apple's documentation asks and its library does, or one reused until it nears its expiry.
///
/// ```swift
/// configuration.tokenPolicy = .perRequest                      // the default: 5 minutes, a new token each request
/// configuration.tokenPolicy = .reused(lifetime: .seconds(1800)) // one token until 5 minutes before it expires
/// ```
///
/// A token costs one ES256 signature, far below a request's round trip to Apple (the module's "Measurements").
public struct BearerTokenPolicy: Sendable, Hashable {
    /// Whether a token serves the requests that follow it until ``BearerTokenProvider/renewalMargin`` before its
    /// expiry (`false`: a new token for each request).
    public let reusesTokens: Bool
    /// Each token's lifetime (`exp` − `iat`): at most 60 minutes; over ``BearerTokenProvider/renewalMargin`` when
    /// tokens are reused.
    public let lifetime: Duration

    /// A new token for each request, valid 5 minutes (Apple's library's choice).
    public static let perRequest = BearerTokenPolicy(reusesTokens: false, lifetime: .seconds(5 * 60))

    /// A new token for each request, valid `lifetime` (positive, at most 60 minutes).
    public static func perRequest(lifetime: Duration) -> BearerTokenPolicy {
        BearerTokenPolicy(reusesTokens: false, lifetime: lifetime)
    }

    /// One token reused until 5 minutes before it expires, valid `lifetime` (over 5 minutes, at most 60; 30 by
    /// default).
    public static func reused(lifetime: Duration = .seconds(30 * 60)) -> BearerTokenPolicy {
        BearerTokenPolicy(reusesTokens: true, lifetime: lifetime)
    }

    private init(reusesTokens: Bool, lifetime: Duration) {
        self.reusesTokens = reusesTokens
        self.lifetime = lifetime
    }

    /// Why this policy cannot make tokens, or `nil`.
    var problem: String? {
        if self.lifetime > BearerToken.maximumLifetime { return "a token's lifetime must be at most 60 minutes" }
        if self.reusesTokens, self.lifetime <= BearerTokenProvider.renewalMargin {
            return "a reused token's lifetime must be over 5 minutes and at most 60"
        }
        if self.lifetime < .seconds(1) { return "a token's lifetime must be at least one second" }
        return nil
    }
}
