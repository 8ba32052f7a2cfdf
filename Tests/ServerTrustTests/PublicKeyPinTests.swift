import Crypto
import ServerTrust
import SwiftASN1
import Testing
import X509

/// A key pin hashes the SubjectPublicKeyInfo exactly as the certificate encodes it; the evaluator finds those bytes
/// by reading the TBSCertificate's headers, so they are checked here against swift-certificates' own encoding of
/// the key, with and without the optional version field and with names long enough for multi-octet lengths.
struct PublicKeyPinTests {
    @Test(arguments: [Certificate.Version.v3, .v1], [false, true])
    func aKeyPinHashesTheEncodedSubjectPublicKeyInfo(version: Certificate.Version, longNames: Bool) throws {
        let key = P256.Signing.PrivateKey()
        var spec = try ProfileTestPKI.rootSpec(key, name: longNames ? String(repeating: "Long Root ", count: 30) : "R")
        spec.version = version
        if version == .v1 { spec.extensions = [] }
        let certificate = try ProfileTestPKI.issue(spec, key: key, issuer: nil).certificate
        #expect(certificate.version == version)

        let pin = try #require(PublicKeyPin(publicKeyOf: certificate))
        #expect(pin.digest == Array(SHA256.hash(data: try Self.encoded(certificate.publicKey))))
        let other = Certificate.PublicKey(P256.Signing.PrivateKey().publicKey)
        #expect(pin.digest != Array(SHA256.hash(data: try Self.encoded(other))))
    }

    /// The whole SubjectPublicKeyInfo, as swift-certificates serialises the key.
    static func encoded(_ key: Certificate.PublicKey) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(key)
        return serializer.serializedBytes
    }
}
