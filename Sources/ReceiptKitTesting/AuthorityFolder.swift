import Foundation
import ReceiptKit
import SwiftASN1
import X509

/// The folder layout test authorities are saved in: `root`, `intermediate`, `leaf`, each as `NAME.cer` (DER),
/// `NAME.pem` and `NAME.key.pem` (PKCS#8).
enum AuthorityFolder {
    static let names = ["root", "intermediate", "leaf"]

    /// Writes the three certificates and their PEM keys, in ``names`` order.
    static func save(_ entries: [(certificate: Certificate, keyPEM: String)], to directory: URL) throws(MintingError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, entry) in zip(Self.names, entries) {
                var serializer = DER.Serializer()
                try serializer.serialize(entry.certificate)
                try Data(serializer.serializedBytes).write(to: directory.appendingPathComponent("\(name).cer"))
                try Data(entry.certificate.serializeAsPEM().pemString.utf8).write(
                    to: directory.appendingPathComponent("\(name).pem")
                )
                try Data(entry.keyPEM.utf8).write(to: directory.appendingPathComponent("\(name).key.pem"))
            }
        } catch {
            throw MintingError(.unwritableFile, "\(directory.path): \(error)")
        }
    }

    /// Reads the three certificates and their keys, in ``names`` order, the keys parsed by `key`.
    /// - Throws: ``MintingError`` with ``MintingError/Code/unreadableFile`` or ``MintingError/Code/malformedAuthority``
    ///   (`what` names the expected key kind in the message).
    static func load<Key>(
        from directory: URL,
        what: String,
        key: (String) throws -> Key
    ) throws(MintingError) -> (root: (Certificate, Key), intermediate: (Certificate, Key), leaf: (Certificate, Key)) {
        var loaded: [(Certificate, Key)] = []
        for name in Self.names {
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
                loaded.append((try Certificate(derEncoded: certificateBytes), try key(String(decoding: keyBytes, as: UTF8.self))))
            } catch {
                throw MintingError(.malformedAuthority, "\(certificatePath) or \(keyPath): not \(what): \(error)")
            }
        }
        guard loaded.count == 3 else { throw MintingError(.malformedAuthority, "\(directory.path): incomplete") }
        return (loaded[0], loaded[1], loaded[2])
    }
}
