public import Foundation

/// A test authority of three levels — a self-signed root, an intermediate it signs, a signing leaf — that can be
/// saved to a folder and loaded again (`NAME.cer` DER, `NAME.pem` and `NAME.key.pem` for each level).
///
/// ``TestCertificateAuthority`` (RSA, receipts) and ``JWSTestAuthority`` (P-256, App Store signed data) conform.
public protocol TestAuthorityHierarchy: Sendable {
    /// The kind of private key every level holds.
    associatedtype PrivateKey: TestAuthorityKey

    /// The self-signed root: pass it as an anchor.
    var root: SigningIdentity<PrivateKey> { get }
    /// The intermediate, signed by the root.
    var intermediate: SigningIdentity<PrivateKey> { get }
    /// The signing leaf, signed by the intermediate.
    var leaf: SigningIdentity<PrivateKey> { get }

    /// An authority from existing identities.
    init(root: SigningIdentity<PrivateKey>, intermediate: SigningIdentity<PrivateKey>, leaf: SigningIdentity<PrivateKey>)

    /// What a saved folder of this kind holds, for messages: "an RSA receipt authority".
    static var folderDescription: String { get }
}

extension TestAuthorityHierarchy {
    /// Saves the hierarchy to `directory`: `NAME.cer` (DER), `NAME.pem` and `NAME.key.pem` (PKCS#8) for `root`,
    /// `intermediate` and `leaf`. Pass `root.cer` to validators and verifiers as the anchor.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unwritableFile``.
    public func save(to directory: URL) throws(MintingError) {
        try AuthorityFolder.save(
            [self.root, self.intermediate, self.leaf].map { ($0.certificate, $0.privateKey.pkcs8PEMText) },
            to: directory
        )
    }

    /// Loads a hierarchy written by ``save(to:)``.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unreadableFile`` or
    ///   ``MintingError/Code/malformedAuthority`` (a key of another kind, say).
    public init(contentsOf directory: URL) throws(MintingError) {
        let loaded = try AuthorityFolder.load(from: directory, what: Self.folderDescription) {
            try PrivateKey(pemRepresentation: $0)
        }
        self.init(
            root: SigningIdentity(certificate: loaded.root.0, privateKey: loaded.root.1),
            intermediate: SigningIdentity(certificate: loaded.intermediate.0, privateKey: loaded.intermediate.1),
            leaf: SigningIdentity(certificate: loaded.leaf.0, privateKey: loaded.leaf.1)
        )
    }
}
