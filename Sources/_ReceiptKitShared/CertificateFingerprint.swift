public import protocol Foundation.DataProtocol
import Crypto
public import X509
import SwiftASN1

/// The SHA-256 fingerprint of a certificate: the digest of its DER encoding, as pins and anchor sets compare it.
///
/// The one fingerprint helper of the package (receipt and JWS chains, anchor identities, the codegen's pinned root,
/// the CLI's certificate listings).
public enum CertificateFingerprint {
    /// SHA-256 of `derEncoded`, the certificate's DER bytes as received.
    public static func sha256(derEncoded bytes: some DataProtocol) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// SHA-256 of `certificate`'s DER encoding, or an empty array when it cannot be serialised.
    public static func sha256(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil else { return [] }
        return Self.sha256(derEncoded: serializer.serializedBytes)
    }
}
