public import Foundation
import SwiftASN1
import X509
import _CryptoExtras

extension TestCertificateAuthority {
    /// The file names inside a saved authority's folder.
    static let files = ["root", "intermediate", "leaf"]

    /// Saves the hierarchy to `directory`: `NAME.cer` (DER), `NAME.pem` and `NAME.key.pem` (PKCS#8) for `root`,
    /// `intermediate` and `leaf`. Pass `root.cer` to validators as the anchor.
    public func save(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, identity) in zip(Self.files, [self.root, self.intermediate, self.leaf]) {
            var serializer = DER.Serializer()
            try serializer.serialize(identity.certificate)
            try Data(serializer.serializedBytes).write(to: directory.appendingPathComponent("\(name).cer"))
            try Data(identity.certificate.serializeAsPEM().pemString.utf8).write(
                to: directory.appendingPathComponent("\(name).pem")
            )
            try Data(identity.privateKey.pkcs8PEMRepresentation.utf8).write(
                to: directory.appendingPathComponent("\(name).key.pem")
            )
        }
    }

    /// Loads a hierarchy written by ``save(to:)``.
    public init(contentsOf directory: URL) throws {
        var identities: [Identity] = []
        for name in Self.files {
            let certificate = try Certificate(
                derEncoded: [UInt8](Data(contentsOf: directory.appendingPathComponent("\(name).cer")))
            )
            let key = try _RSA.Signing.PrivateKey(
                pemRepresentation: String(decoding: Data(contentsOf: directory.appendingPathComponent("\(name).key.pem")), as: UTF8.self)
            )
            identities.append(Identity(certificate: certificate, privateKey: key))
        }
        self.init(root: identities[0], intermediate: identities[1], leaf: identities[2])
    }
}
