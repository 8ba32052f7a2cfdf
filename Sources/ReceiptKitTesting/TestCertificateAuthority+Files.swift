public import Foundation
import _CryptoExtras

extension TestCertificateAuthority {
    /// Saves the hierarchy to `directory`: `NAME.cer` (DER), `NAME.pem` and `NAME.key.pem` (PKCS#8) for `root`,
    /// `intermediate` and `leaf`. Pass `root.cer` to validators as the anchor.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unwritableFile``.
    public func save(to directory: URL) throws(MintingError) {
        try AuthorityFolder.save(
            [self.root, self.intermediate, self.leaf].map { ($0.certificate, $0.privateKey.pkcs8PEMRepresentation) },
            to: directory
        )
    }

    /// Loads a hierarchy written by ``save(to:)``.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unreadableFile`` or
    ///   ``MintingError/Code/malformedAuthority``.
    public init(contentsOf directory: URL) throws(MintingError) {
        let loaded = try AuthorityFolder.load(from: directory, what: "an RSA receipt authority") {
            try _RSA.Signing.PrivateKey(pemRepresentation: $0)
        }
        self.init(
            root: Identity(certificate: loaded.root.0, privateKey: loaded.root.1),
            intermediate: Identity(certificate: loaded.intermediate.0, privateKey: loaded.intermediate.1),
            leaf: Identity(certificate: loaded.leaf.0, privateKey: loaded.leaf.1)
        )
    }
}
