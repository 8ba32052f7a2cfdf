import AppStoreJWS
import Crypto

/// A compact JWT signed ES256 with an App Store Connect key: the header Apple asks for (`alg` ES256, the key's `kid`,
/// `typ` JWT), the claims, and the raw `r‖s` signature, each part base64url without padding. Bearer tokens and the
/// signatures an app server makes for StoreKit share it.
enum ES256JWT {
    /// `claims` signed with `key` under its key id.
    static func sign(
        _ claims: [String: JSONValue], keyID: String, with key: P256.Signing.PrivateKey
    ) throws(AppStoreServerAPIError) -> String {
        let header: JSONValue = .object(["alg": .string("ES256"), "kid": .string(keyID), "typ": .string("JWT")])
        let signingInput = "\(Base64URL.encode(header.serialized)).\(Base64URL.encode(JSONValue.object(claims).serialized))"
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.signature(for: Array(signingInput.utf8))
        } catch {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the private key could not sign")
        }
        return "\(signingInput).\(Base64URL.encode(signature.rawRepresentation))"
    }
}
