public import X509

/// A certificate with its private key: one level of a test authority (RSA for receipts, P-256 for JWS).
public struct SigningIdentity<PrivateKey: Sendable>: Sendable {
    public var certificate: Certificate
    public var privateKey: PrivateKey

    public init(certificate: Certificate, privateKey: PrivateKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }
}
