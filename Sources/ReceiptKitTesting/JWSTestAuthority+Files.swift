public import Foundation
import Crypto

extension JWSTestAuthority {
    /// Saves the hierarchy to `directory`: `NAME.cer` (DER), `NAME.pem` and `NAME.key.pem` (PKCS#8, P-256) for
    /// `root`, `intermediate` and `leaf`. Pass `root.cer` to verifiers as the anchor.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unwritableFile``.
    public func save(to directory: URL) throws(MintingError) {
        try AuthorityFolder.save(
            [self.root, self.intermediate, self.leaf].map { ($0.certificate, $0.privateKey.pemRepresentation) },
            to: directory
        )
    }

    /// Loads a hierarchy written by ``save(to:)``.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unreadableFile`` or
    ///   ``MintingError/Code/malformedAuthority`` (a receipt authority's RSA keys are not P-256).
    public init(contentsOf directory: URL) throws(MintingError) {
        let loaded = try AuthorityFolder.load(from: directory, what: "a P-256 JWS authority") {
            try P256.Signing.PrivateKey(pemRepresentation: $0)
        }
        self.init(
            root: Identity(certificate: loaded.root.0, privateKey: loaded.root.1),
            intermediate: Identity(certificate: loaded.intermediate.0, privateKey: loaded.intermediate.1),
            leaf: Identity(certificate: loaded.leaf.0, privateKey: loaded.leaf.1)
        )
    }

    /// An authority from existing identities.
    public init(root: Identity, intermediate: Identity, leaf: Identity) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
    }
}
