public import Foundation
import ReceiptKit
import SwiftASN1
import X509
import _CryptoExtras

extension TestCertificateAuthority {
    /// The file names inside a saved authority's folder.
    static let files = ["root", "intermediate", "leaf"]

    /// Saves the hierarchy to `directory`: `NAME.cer` (DER), `NAME.pem` and `NAME.key.pem` (PKCS#8) for `root`,
    /// `intermediate` and `leaf`. Pass `root.cer` to validators as the anchor.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unwritableFile``.
    public func save(to directory: URL) throws(MintingError) {
        do {
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
        } catch {
            throw MintingError(.unwritableFile, "\(directory.path): \(error)")
        }
    }

    /// Loads a hierarchy written by ``save(to:)``.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unreadableFile`` or
    ///   ``MintingError/Code/malformedAuthority``.
    public init(contentsOf directory: URL) throws(MintingError) {
        var identities: [Identity] = []
        for name in Self.files {
            let certificatePath = directory.appendingPathComponent("\(name).cer").path
            let keyPath = directory.appendingPathComponent("\(name).key.pem").path
            let certificateBytes: [UInt8]
            let keyBytes: [UInt8]
            do {
                certificateBytes = try ReceiptFile.contents(atPath: certificatePath)
                keyBytes = try ReceiptFile.contents(atPath: keyPath)
            } catch {
                throw MintingError(.unreadableFile, error.reason)
            }
            do {
                let certificate = try Certificate(derEncoded: certificateBytes)
                let key = try _RSA.Signing.PrivateKey(pemRepresentation: String(decoding: keyBytes, as: UTF8.self))
                identities.append(Identity(certificate: certificate, privateKey: key))
            } catch {
                throw MintingError(.malformedAuthority, "\(certificatePath) or \(keyPath): \(error)")
            }
        }
        self.init(root: identities[0], intermediate: identities[1], leaf: identities[2])
    }
}
