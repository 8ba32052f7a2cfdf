import X509

extension Certificate {
    /// The `subjectPublicKeyInfo` element of the TBSCertificate, as encoded in the certificate (not re-serialised):
    ///
    /// ```
    /// TBSCertificate ::= SEQUENCE {
    ///     version [0] EXPLICIT Version DEFAULT v1, serialNumber, signature, issuer, validity, subject,
    ///     subjectPublicKeyInfo SubjectPublicKeyInfo, ... }
    /// ```
    ///
    /// Found by reading the six headers in front of it: a pin is matched on every candidate path, and parsing the
    /// whole TBSCertificate into a tree for it cost an eighth of a trusted evaluation.
    var rawSubjectPublicKeyInfo: ArraySlice<UInt8>? {
        guard var fields = DERHeader.fieldsFromSerialNumber(ofTBSCertificate: self.tbsCertificateBytes) else { return nil }
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo.
        var field: DERHeader.Element?
        for _ in 0..<6 { field = fields.next() }
        guard let field else { return nil }
        return field.tag == 0x30 ? field.encoded : nil
    }
}
