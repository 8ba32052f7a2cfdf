import SwiftASN1
import X509

/// The basicConstraints extension's value as encoded, read only where swift-certificates refuses it:
///
/// ```
/// BasicConstraints ::= SEQUENCE {
///      cA                      BOOLEAN DEFAULT FALSE,
///      pathLenConstraint       INTEGER (0..MAX) OPTIONAL }
/// ```
///
/// swift-certificates throws on a pathLenConstraint without cA. RFC 5280 §4.2.1.9 forbids a CA to write one
/// ("CAs MUST NOT include the pathLenConstraint field unless the cA boolean is asserted"), but the field constrains
/// nothing in a certificate that is no CA: a relying party ignores it and reads the certificate as not a CA.
struct BasicConstraintsSyntax: DERParseable, Sendable {
    let isCertificateAuthority: Bool
    let pathLengthConstraint: Int?

    init(derEncoded node: ASN1Node) throws {
        let (isCertificateAuthority, pathLengthConstraint) = try DER.sequence(node, identifier: .sequence) { nodes in
            let isCertificateAuthority: Bool = try DER.decodeDefault(&nodes, defaultValue: false)
            let pathLengthConstraint: Int? = try DER.optionalImplicitlyTagged(&nodes)
            return (isCertificateAuthority, pathLengthConstraint)
        }
        if let pathLengthConstraint, pathLengthConstraint < 0 {
            throw ASN1Error.invalidASN1Object(reason: "pathLenConstraint is negative")
        }
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }

    /// `extensions`' basic constraints: swift-certificates' reading, or, when it refuses one that is no CA and
    /// carries a pathLenConstraint, ``BasicConstraints/notCertificateAuthority``.
    ///
    /// - Throws: What swift-certificates threw, when the value is malformed for this reading too.
    static func basicConstraints(of extensions: Certificate.Extensions) throws -> BasicConstraints? {
        do {
            return try extensions.basicConstraints
        } catch {
            guard let value = extensions[oid: .X509ExtensionID.basicConstraints]?.value,
                let syntax = try? BasicConstraintsSyntax(derEncoded: value), !syntax.isCertificateAuthority
            else { throw error }
            return .notCertificateAuthority
        }
    }
}
