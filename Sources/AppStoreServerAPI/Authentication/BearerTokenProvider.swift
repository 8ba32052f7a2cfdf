public import struct Foundation.Date
import NIOConcurrencyHelpers

/// Hands out the bearer tokens of one key and app as its ``BearerTokenPolicy`` says: by default a new token for each
/// request (Apple's documentation asks for one per request, and its library makes one); with
/// ``BearerTokenPolicy/reused(lifetime:)``, a new one only when the current one is within ``renewalMargin`` of its
/// expiry, so one token serves every request in between.
///
/// Safe to share between tasks; time is the caller's `now`, so tests pin it.
public final class BearerTokenProvider: Sendable {
    /// How long before its expiry a token is replaced.
    public static let renewalMargin: Duration = .seconds(5 * 60)

    /// The key that signs.
    public let key: AppStoreServerAPIKey
    /// The app (`bid`).
    public let bundleIdentifier: String
    /// How tokens are made: per request, or reused.
    public let policy: BearerTokenPolicy
    /// Each token's lifetime (the policy's).
    public var lifetime: Duration { self.policy.lifetime }
    private let current: NIOLockedValueBox<BearerToken?>

    /// A provider.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` when the bundle
    ///   id is empty or the policy's lifetime is out of its range (at most 60 minutes; over 5 when reused).
    public init(
        key: AppStoreServerAPIKey,
        bundleIdentifier: String,
        policy: BearerTokenPolicy = .perRequest
    )
        throws(AppStoreServerAPIError)
    {
        guard !bundleIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the bundle id must not be empty")
        }
        if let problem = policy.problem { throw AppStoreServerAPIError(.invalidConfiguration, problem) }
        self.key = key
        self.bundleIdentifier = bundleIdentifier
        self.policy = policy
        self.current = NIOLockedValueBox(nil)
    }

    /// The token to send at `now`: a new one per request; when tokens are reused, the current one while `now` is
    /// more than ``renewalMargin`` before its expiry (and not before it was issued), else a new one.
    public func token(now: Date) throws(AppStoreServerAPIError) -> BearerToken {
        guard self.policy.reusesTokens else {
            return try BearerToken(key: self.key, bundleIdentifier: self.bundleIdentifier, now: now, lifetime: self.lifetime)
        }
        let result: Result<BearerToken, AppStoreServerAPIError> = self.current.withLockedValue { current in
            let seconds = now.timeIntervalSince1970
            if let token = current, seconds >= Double(token.issuedAt),
                seconds < Double(token.expiresAt - Self.renewalMargin.components.seconds)
            {
                return .success(token)
            }
            do throws(AppStoreServerAPIError) {
                let token = try BearerToken(key: self.key, bundleIdentifier: self.bundleIdentifier, now: now, lifetime: self.lifetime)
                current = token
                return .success(token)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
