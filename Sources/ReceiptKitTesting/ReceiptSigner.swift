public import X509

/// Who signs a minted receipt, and which certificates the receipt carries.
public struct ReceiptSigner: Sendable {
    /// The signing certificate and key; the CMS signer identifier names this certificate.
    public var identity: TestCertificateAuthority.Identity
    /// The certificates embedded in the receipt, in this order (Apple's is leaf, intermediate, root).
    public var certificates: [Certificate]

    public init(identity: TestCertificateAuthority.Identity, certificates: [Certificate]) {
        self.identity = identity
        self.certificates = certificates
    }
}
