import Crypto
import SwiftASN1
package import X509
import _CryptoExtras

/// A certificate parsed once, with what validating a receipt asks of it precomputed.
package struct ParsedCertificate: Sendable {
    package let certificate: Certificate
    /// SHA-256 of the certificate's DER: the pin compared with ``PinnedCertificates``, and its part of chain-outcome
    /// cache keys.
    package let fingerprint: [UInt8]
    /// The DER of the issuer name, for matching a CMS `IssuerAndSerialNumber` without parsing it.
    let issuerDER: [UInt8]
    /// The RSA key, when the certificate holds one (receipt signers always do).
    let rsaKey: _RSA.Signing.PublicKey?

    package init(derEncoded bytes: ArraySlice<UInt8>) throws(ReceiptError) {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: Array(bytes))
        } catch {
            throw ReceiptError(.malformedCertificate, "embedded certificate does not parse: \(error)")
        }
        var serializer = DER.Serializer()
        do {
            try serializer.serialize(certificate.issuer)
        } catch {
            throw ReceiptError(.malformedCertificate, "certificate issuer cannot be encoded: \(error)")
        }
        self.certificate = certificate
        self.fingerprint = Array(SHA256.hash(data: bytes))
        self.issuerDER = serializer.serializedBytes
        self.rsaKey = _RSA.Signing.PublicKey(certificate.publicKey)
    }

    /// Whether this certificate is the one a CMS signer identifier names.
    func matches(_ identifier: CMSSignerIdentifier) -> Bool {
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serialNumber):
            guard Self.stripLeadingZeros(self.certificate.serialNumber.bytes) == Self.stripLeadingZeros(serialNumber)
            else { return false }
            if issuer.elementsEqual(self.issuerDER) { return true }
            // Not byte-identical: compare as names (a different but equivalent encoding).
            guard let name = try? DistinguishedName(derEncoded: DER.parse(issuer)) else { return false }
            return name == self.certificate.issuer
        case .subjectKeyIdentifier(let keyIdentifier):
            guard let ski = try? self.certificate.extensions.subjectKeyIdentifier else { return false }
            return ski.keyIdentifier.elementsEqual(keyIdentifier)
        }
    }

    private static func stripLeadingZeros(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.drop(while: { $0 == 0 })
    }
}
