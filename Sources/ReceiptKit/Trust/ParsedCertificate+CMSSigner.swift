import AppStorePKI
import SwiftASN1
import X509

extension ParsedCertificate {
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
