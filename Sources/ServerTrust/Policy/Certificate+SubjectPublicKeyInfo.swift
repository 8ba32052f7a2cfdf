import SwiftASN1
import X509

extension Certificate {
    /// The `subjectPublicKeyInfo` element of the TBSCertificate, as encoded in the certificate (not re-serialised):
    ///
    /// ```
    /// TBSCertificate ::= SEQUENCE {
    ///     version [0] EXPLICIT Version DEFAULT v1, serialNumber, signature, issuer, validity, subject,
    ///     subjectPublicKeyInfo SubjectPublicKeyInfo, ... }
    /// ```
    var rawSubjectPublicKeyInfo: ArraySlice<UInt8>? {
        guard let tbs = try? DER.parse(self.tbsCertificateBytes), case .constructed(let fields) = tbs.content else {
            return nil
        }
        var children = Array(fields)
        if let first = children.first, first.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            children.removeFirst()
        }
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo
        guard children.count >= 6 else { return nil }
        return children[5].encodedBytes
    }
}
