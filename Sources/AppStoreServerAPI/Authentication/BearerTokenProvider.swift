public import struct Foundation.Date
import NIOConcurrencyHelpers

/// Hands out the bearer token of one key and app, signing a new one only when the current one is within
/// ``renewalMargin`` of its expiry: one token serves every request in between, as Apple asks.
///
/// Safe to share between tasks; time is the caller's `now`, so tests pin it.
public final class BearerTokenProvider: Sendable {
    /// How long before its expiry a token is replaced.
    public static let renewalMargin: Duration = .seconds(5 * 60)

    /// The key that signs.
    public let key: AppStoreServerAPIKey
    /// The app (`bid`).
    public let bundleIdentifier: String
    /// Each token's lifetime: over ``renewalMargin``, at most 60 minutes.
    public let lifetime: Duration
    private let current: NIOLockedValueBox<BearerToken?>

    /// A provider.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` when the bundle
    ///   id is empty or the lifetime is not over 5 minutes and at most 60.
    public init(
        key: AppStoreServerAPIKey,
        bundleIdentifier: String,
        lifetime: Duration = .seconds(30 * 60)
    )
        throws(AppStoreServerAPIError)
    {
        guard !bundleIdentifier.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the bundle id must not be empty")
        }
        guard lifetime > Self.renewalMargin, lifetime <= BearerToken.maximumLifetime else {
            throw AppStoreServerAPIError(
                .invalidConfiguration,
                "a token's lifetime must be over 5 minutes and at most 60"
            )
        }
        self.key = key
        self.bundleIdentifier = bundleIdentifier
        self.lifetime = lifetime
        self.current = NIOLockedValueBox(nil)
    }

    /// The token to send at `now`: the current one while `now` is more than ``renewalMargin`` before its expiry (and
    /// not before it was issued), else a new one.
    public func token(now: Date) throws(AppStoreServerAPIError) -> BearerToken {
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
