public import AppStoreServerAPI

/// An In-App Purchase key registered with ``AppStoreServerSimulator``: the public half of the `.p8` key a client
/// signs its bearer tokens with, the key id (`kid`) and issuer id (`iss`) App Store Connect shows beside it, and the
/// apps it may name (`nil`: any) — the key `BearerTokenVerifier` (AppStoreServerAPI) checks tokens against.
///
/// ```swift
/// let privateKey = P256.Signing.PrivateKey()      // privateKey.pemRepresentation is the .p8 file's text
/// store.register(SimulatedAPIKey(keyID: "KEY1", issuerID: "issuer", publicKey: privateKey.publicKey))
/// ```
public typealias SimulatedAPIKey = BearerTokenVerifier.Key
