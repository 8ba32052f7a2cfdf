import AppStoreJWS
import Crypto
import struct Foundation.Date

/// The App Store Server API's check of `Authorization: Bearer <JWT>`, as Apple documents it ("Generating JSON Web
/// Tokens for API requests"): header `alg` ES256, `kid` a registered key, `typ` JWT; an ES256 signature by that
/// key; claims `iss` the key's issuer, `aud` `appstoreconnect-v1`, `bid` an app the key serves, `iat` not in the
/// future, `exp` in the future and at most 60 minutes after `iat`.
enum BearerTokenCheck {
    enum Outcome: Sendable {
        case accepted(SimulatedCaller)
        /// Refused, with the reason ``SimulatedRequest/tokenRefusal`` reports.
        case refused(String)
    }

    static let audience = "appstoreconnect-v1"
    /// How far in the future `iat` may be, for clocks a little apart.
    static let clockSkewSeconds = 60.0
    /// The longest `exp - iat` Apple accepts.
    static let maximumLifetimeSeconds = 3600.0

    static func check(
        _ authorization: String?, keys: [String: SimulatedAPIKey], apps: [String: Int64], now: Date
    ) -> Outcome {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return .refused("missing") }
        let token = authorization.dropFirst("Bearer ".count)
        guard let jwt = try? CompactJWS(Array(token.utf8)) else { return .refused("malformed") }
        let header = jwt.header.fields
        guard header.string("alg") == "ES256" else { return .refused("algorithm") }
        guard header.string("typ") == "JWT" else { return .refused("type") }
        guard let keyID = header.string("kid"), let key = keys[keyID] else { return .refused("unknown_key") }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
            key.publicKey.isValidSignature(signature, for: jwt.signingInput)
        else { return .refused("signature") }
        let claims = jwt.payload
        guard claims.string("iss") == key.issuerID else { return .refused("issuer") }
        guard claims.string("aud") == Self.audience else { return .refused("audience") }
        guard let bundleIdentifier = claims.string("bid"), let appAppleID = apps[bundleIdentifier],
            key.bundleIdentifiers?.contains(bundleIdentifier) ?? true
        else { return .refused("bundle") }
        guard let issuedAt = claims.double("iat"), let expires = claims.double("exp"), issuedAt.isFinite,
            expires.isFinite
        else { return .refused("malformed") }
        let seconds = now.timeIntervalSince1970
        guard issuedAt <= seconds + Self.clockSkewSeconds else { return .refused("issued_in_future") }
        guard expires > seconds, expires > issuedAt else { return .refused("expired") }
        guard expires - issuedAt <= Self.maximumLifetimeSeconds else { return .refused("lifetime_too_long") }
        return .accepted(SimulatedCaller(key: key, bundleIdentifier: bundleIdentifier, appAppleID: appAppleID))
    }
}
