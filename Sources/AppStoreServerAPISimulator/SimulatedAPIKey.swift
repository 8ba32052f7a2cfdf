public import Crypto

/// An In-App Purchase key registered with ``AppStoreServerSimulator``: the public half of the `.p8` key a client
/// signs its bearer tokens with, the key id (`kid`) and issuer id (`iss`) App Store Connect shows beside it.
///
/// ```swift
/// let privateKey = P256.Signing.PrivateKey()      // privateKey.pemRepresentation is the .p8 file's text
/// store.register(SimulatedAPIKey(keyID: "KEY1", issuerID: "issuer", publicKey: privateKey.publicKey))
/// ```
public struct SimulatedAPIKey: Sendable {
    /// The key id tokens name in their header (`kid`).
    public var keyID: String
    /// The issuer id tokens name in their claims (`iss`).
    public var issuerID: String
    /// The key that verifies the tokens' ES256 signatures.
    public var publicKey: P256.Signing.PublicKey
    /// The bundle ids this key may name in `bid`; `nil` for every app registered with the simulator (Apple's keys
    /// serve every app of their team). A token naming another app is refused like any bad token: 401.
    public var bundleIdentifiers: Set<String>?

    public init(keyID: String, issuerID: String, publicKey: P256.Signing.PublicKey, bundleIdentifiers: Set<String>? = nil) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.publicKey = publicKey
        self.bundleIdentifiers = bundleIdentifiers
    }
}
