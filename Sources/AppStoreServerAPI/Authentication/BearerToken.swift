public import struct Foundation.Date
import AppStoreJWS
import Crypto

/// The bearer token of App Store Server API requests: a JWT (RFC 7519) signed with ES256 by an In-App Purchase key,
/// as Apple documents in "Generating JSON Web Tokens for API requests".
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims `iss` (issuer id), `iat`, `exp` (at most 60 minutes after
/// `iat`), `aud` `appstoreconnect-v1`, `bid` (bundle id).
public struct BearerToken: Sendable, Hashable, CustomStringConvertible {
    /// The audience Apple requires.
    public static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts.
    public static let maximumLifetime: Duration = .seconds(60 * 60)

    /// The compact JWT, `header.claims.signature`.
    public let compact: String
    /// `iat`: whole seconds since 1970.
    public let issuedAt: Int64
    /// `exp`: whole seconds since 1970.
    public let expiresAt: Int64

    /// The token's expiry as an instant.
    public var expiryDate: Date { Date(timeIntervalSince1970: Double(self.expiresAt)) }

    /// Signs a token for `bundleIdentifier`, issued at `now` (truncated to whole seconds) and valid for `lifetime`.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` when the
    ///   lifetime is not positive or over ``maximumLifetime``, or `now` is not a representable instant.
    public init(
        key: AppStoreServerAPIKey,
        bundleIdentifier: String,
        now: Date,
        lifetime: Duration
    ) throws(AppStoreServerAPIError) {
        let seconds = lifetime.components.seconds
        guard seconds > 0, lifetime <= Self.maximumLifetime else {
            throw AppStoreServerAPIError(
                .invalidConfiguration,
                "a token's lifetime must be between 1 second and 60 minutes"
            )
        }
        let epoch = now.timeIntervalSince1970.rounded(.down)
        guard epoch.isFinite, epoch >= 0, epoch < 1e15 else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the clock's time is not a representable instant")
        }
        let issuedAt = Int64(epoch)
        let expiresAt = issuedAt + seconds
        self.compact = try ES256JWT.sign(
            [
                "iss": .string(key.issuerID),
                "iat": .number(JSONNumber(issuedAt)),
                "exp": .number(JSONNumber(expiresAt)),
                "aud": .string(Self.audience),
                "bid": .string(bundleIdentifier),
            ],
            keyID: key.keyID, with: key.signingKey)
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// Names the expiry only: the token itself is a credential.
    public var description: String { "BearerToken(expiresAt: \(self.expiresAt))" }
}
