public import Crypto
public import _CryptoExtras

/// A private key a test authority saves as PKCS#8 PEM and loads again: RSA for receipts, P-256 for JWS.
public protocol TestAuthorityKey: Sendable {
    init(pemRepresentation: String) throws
    /// The key as PKCS#8 PEM text.
    var pkcs8PEMText: String { get }
}

extension _RSA.Signing.PrivateKey: TestAuthorityKey {
    public var pkcs8PEMText: String { self.pkcs8PEMRepresentation }
}

extension P256.Signing.PrivateKey: TestAuthorityKey {
    public var pkcs8PEMText: String { self.pemRepresentation }
}
