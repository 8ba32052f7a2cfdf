import AppStoreJWS
public import Crypto
public import struct Foundation.Date

/// The App Store Server API's check of `Authorization: Bearer <JWT>`, as Apple documents it ("Generating JSON Web
/// Tokens for API requests"): header `alg` ES256, `kid` a known key, `typ` JWT; an ES256 signature by that key;
/// claims `iss` the key's issuer, `aud` `appstoreconnect-v1`, `bid` an app the key serves, `iat` not in the future,
/// `exp` in the future and at most 60 minutes after `iat`. The other side of ``BearerTokenProvider``: what a server
/// that answers like Apple's (the ledger's mirror, the simulator) checks.
///
/// `iat` may be absent, as in the tokens Apple's own app-store-server-library signs (its Python client sends `bid`,
/// `iss`, `aud` and `exp` five minutes ahead): `exp` must then be at most 60 minutes from now.
public struct BearerTokenVerifier: Sendable {
    /// A key tokens may be signed with.
    public struct Key: Sendable {
        /// `kid`.
        public var keyID: String
        /// `iss`.
        public var issuerID: String
        /// The public half of the key.
        public var publicKey: P256.Signing.PublicKey
        /// The apps (`bid`) it may name; `nil`: any.
        public var bundleIdentifiers: Set<String>?

        /// Describes a key.
        public init(keyID: String, issuerID: String, publicKey: P256.Signing.PublicKey, bundleIdentifiers: Set<String>? = nil) {
            self.keyID = keyID
            self.issuerID = issuerID
            self.publicKey = publicKey
            self.bundleIdentifiers = bundleIdentifiers
        }
    }

    /// What the check concluded.
    public enum Verdict: Sendable, Equatable {
        /// A token of `keyID` for the app `bundleIdentifier`.
        case accepted(keyID: String, bundleIdentifier: String)
        /// Refused, with a stable reason: `missing`, `malformed`, `algorithm`, `type`, `unknown_key`, `signature`,
        /// `issuer`, `audience`, `bundle`, `issued_in_future`, `expired`, `lifetime_too_long`.
        case refused(String)
    }

    /// `aud`.
    public static let audience = "appstoreconnect-v1"
    /// How far in the future `iat` may be, for clocks a little apart.
    public static let clockSkewSeconds = 60.0
    /// The longest `exp - iat` Apple accepts.
    public static let maximumLifetimeSeconds = 3600.0

    /// The keys, by key id.
    public let keys: [String: Key]

    /// A verifier of tokens signed by `keys` (a key id given twice: the last).
    public init(keys: [Key]) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Checks an `Authorization` header's value at `now`.
    public func check(_ authorization: String?, now: Date) -> Verdict {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return .refused("missing") }
        let token = authorization.dropFirst("Bearer ".count)
        guard let jwt = try? CompactJWS(Array(token.utf8)) else { return .refused("malformed") }
        let header = jwt.header.fields
        guard header.string("alg") == "ES256" else { return .refused("algorithm") }
        guard header.string("typ") == "JWT" else { return .refused("type") }
        guard let keyID = header.string("kid"), let key = self.keys[keyID] else { return .refused("unknown_key") }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
            key.publicKey.isValidSignature(signature, for: jwt.signingInput)
        else { return .refused("signature") }
        let claims = jwt.payload
        guard claims.string("iss") == key.issuerID else { return .refused("issuer") }
        guard claims.string("aud") == Self.audience else { return .refused("audience") }
        guard let bundleIdentifier = claims.string("bid"), key.bundleIdentifiers?.contains(bundleIdentifier) ?? true
        else { return .refused("bundle") }
        let seconds = now.timeIntervalSince1970
        guard let expires = claims.double("exp"), expires.isFinite else { return .refused("malformed") }
        let issuedAt: Double
        if claims["iat"] == nil {
            // Apple's own library's tokens: their lifetime is counted from now.
            issuedAt = min(seconds, expires)
        } else {
            guard let value = claims.double("iat"), value.isFinite else { return .refused("malformed") }
            issuedAt = value
        }
        guard issuedAt <= seconds + Self.clockSkewSeconds else { return .refused("issued_in_future") }
        guard expires > seconds, expires > issuedAt else { return .refused("expired") }
        guard expires - issuedAt <= Self.maximumLifetimeSeconds else { return .refused("lifetime_too_long") }
        return .accepted(keyID: keyID, bundleIdentifier: bundleIdentifier)
    }
}
