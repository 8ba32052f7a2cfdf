import SwiftASN1
public import X509
package import _CryptoExtras
import _ReceiptKitShared

/// A certificate parsed once, with what verifying the data it signs asks of it precomputed.
///
/// Parsed by ``AppStoreCertificates`` — or found in the ``AppStoreTrustCache`` among those that formed a trusted path
/// before.
public struct ParsedCertificate: Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// SHA-256 of the certificate's DER: the pin compared with ``PinnedCertificates``, and its part of chain-outcome
    /// cache keys.
    public let fingerprint: [UInt8]
    /// The DER of the issuer name, for matching a CMS `IssuerAndSerialNumber` without parsing it.
    package let issuerDER: [UInt8]
    /// The RSA key, when the certificate holds one (receipt signers always do).
    package let rsaKey: _RSA.Signing.PublicKey?

    init(derEncoded bytes: ArraySlice<UInt8>) throws(MalformedCertificateError) {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: Array(bytes))
        } catch {
            throw MalformedCertificateError("embedded certificate does not parse: \(error)")
        }
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(certificate.issuer)
        } catch {
            throw MalformedCertificateError("certificate issuer cannot be encoded: \(error)")
        }
        self.certificate = certificate
        self.fingerprint = CertificateFingerprint.sha256(derEncoded: bytes)
        self.issuerDER = serializer.serializedBytes
        self.rsaKey = _RSA.Signing.PublicKey(certificate.publicKey)
    }
}
