import X509

/// The key identifier extensions Apple's certificates carry and OpenSSL's strict verification requires (Apple's own
/// app-store-server-library verifies with it): a subject key identifier on every certificate, and on every one a CA
/// issued, the issuer's as its authority key identifier (the SHA-1 of each public key, RFC 5280 §4.2.1.2).
enum KeyIdentifiers {
    /// The extensions for a certificate of `subject`'s key issued by `issuer`'s (`nil`: self-signed).
    static func extensions(
        subject: Certificate.PublicKey, issuer: Certificate.PublicKey?
    ) throws -> [Certificate.Extension] {
        var extensions = [try Certificate.Extension(SubjectKeyIdentifier(hash: subject), critical: false)]
        if let issuer {
            let authority = AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuer).keyIdentifier)
            extensions.append(try Certificate.Extension(authority, critical: false))
        }
        return extensions
    }
}
