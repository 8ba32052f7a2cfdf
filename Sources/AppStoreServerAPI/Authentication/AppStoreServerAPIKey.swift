public import Crypto
import Foundation

/// An In-App Purchase key from App Store Connect (Users and Access › Integrations › In-App Purchase): the issuer id,
/// the key id and the P-256 private key of the `.p8` file that signs the API's bearer tokens.
///
/// ```swift
/// let key = try AppStoreServerAPIKey(issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34",
///                                    pemRepresentation: String(decoding: p8Bytes, as: UTF8.self))
/// ```
///
/// The private key is never part of a description, a log line or an error: `description` names the issuer and the
/// key id only.
public struct AppStoreServerAPIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The issuer id (`iss`): your team's id on the Keys page.
    public let issuerID: String
    /// The key id (`kid`).
    public let keyID: String
    let signingKey: P256.Signing.PrivateKey

    /// The public half of the key, as Apple holds it.
    public var publicKey: P256.Signing.PublicKey { self.signingKey.publicKey }

    /// A key from its parts.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` when an id is
    ///   empty.
    public init(issuerID: String, keyID: String, privateKey: P256.Signing.PrivateKey) throws(AppStoreServerAPIError) {
        guard !issuerID.isEmpty, !keyID.isEmpty else {
            throw AppStoreServerAPIError(.invalidConfiguration, "the issuer id and the key id must not be empty")
        }
        self.issuerID = issuerID
        self.keyID = keyID
        self.signingKey = privateKey
    }

    /// A key from the text of the `.p8` file App Store Connect hands out: PEM, `-----BEGIN PRIVATE KEY-----`
    /// (PKCS#8, RFC 5208) around a P-256 key.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidPrivateKey`` when the text is
    ///   not such a key (the reason never quotes it), or ``AppStoreServerAPIError/Code/invalidConfiguration`` when an
    ///   id is empty.
    public init(issuerID: String, keyID: String, pemRepresentation: String) throws(AppStoreServerAPIError) {
        try self.init(issuerID: issuerID, keyID: keyID, privateKey: try Self.privateKey(pemRepresentation: pemRepresentation))
    }

    /// The P-256 key of a `.p8` file's text (PEM PKCS#8), or ``AppStoreServerAPIError/Code/invalidPrivateKey`` with a
    /// reason that never quotes the text.
    static func privateKey(pemRepresentation: String) throws(AppStoreServerAPIError) -> P256.Signing.PrivateKey {
        let pem = String(pemRepresentation.trimmingWhitespace)
        guard pem.hasPrefix("-----BEGIN PRIVATE KEY-----"), pem.hasSuffix("-----END PRIVATE KEY-----") else {
            throw AppStoreServerAPIError(
                .invalidPrivateKey,
                "the private key is not PEM PKCS#8 (-----BEGIN PRIVATE KEY-----), as .p8 files from App Store Connect are"
            )
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the private key is not a PKCS#8 P-256 (ES256) key")
        }
    }

    /// The largest `.p8` file read: 64 KiB (App Store Connect's are about 250 bytes). Readers of key files elsewhere
    /// (the CLI, the service) use the same bound.
    public static let maximumFileSize = 64 * 1024

    /// A key from a `.p8` file: a regular file (or a link to one) of at most ``maximumFileSize`` bytes, never read
    /// past that bound.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidPrivateKey`` when the file cannot
    ///   be read, is not a regular file (a directory, a FIFO, a device), is larger, or is not such a key;
    ///   ``AppStoreServerAPIError/Code/invalidConfiguration`` when an id is empty.
    public init(issuerID: String, keyID: String, privateKeyFile path: String) throws(AppStoreServerAPIError) {
        let bytes = try PrivateKeyFile.contents(atPath: path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AppStoreServerAPIError(.invalidPrivateKey, "the private key file \(path) is not a .p8 key")
        }
        try self.init(issuerID: issuerID, keyID: keyID, pemRepresentation: text)
    }

    public var description: String { "AppStoreServerAPIKey(issuerID: \(self.issuerID), keyID: \(self.keyID))" }
    public var debugDescription: String { self.description }
    public var customMirror: Mirror { Mirror(self, children: ["issuerID": self.issuerID, "keyID": self.keyID]) }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = self.firstIndex(where: { !isSpace($0) }), let last = self.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return self[first...last]
    }
}
