import SwiftASN1

/// ```
/// SignerIdentifier ::= CHOICE {
///     issuerAndSerialNumber IssuerAndSerialNumber,
///     subjectKeyIdentifier [0] SubjectKeyIdentifier }
/// IssuerAndSerialNumber ::= SEQUENCE {
///     issuer Name,
///     serialNumber CertificateSerialNumber }
/// ```
///
/// The issuer name is kept as its encoded bytes; it is compared with certificates after they are parsed.
enum CMSSignerIdentifier: Sendable, Hashable {
    case issuerAndSerialNumber(issuer: ArraySlice<UInt8>, serialNumber: ArraySlice<UInt8>)
    case subjectKeyIdentifier(ArraySlice<UInt8>)

    static let subjectKeyIdentifierTag = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)

    init(berEncoded node: ASN1Node) throws {
        if node.identifier == Self.subjectKeyIdentifierTag {
            self = .subjectKeyIdentifier(try ASN1OctetString(berEncoded: node, withIdentifier: node.identifier).bytes)
            return
        }
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            guard let issuer = nodes.next(), issuer.identifier == .sequence else {
                throw ASN1Error.invalidASN1Object(reason: "IssuerAndSerialNumber without an issuer Name")
            }
            let serial = try ArraySlice<UInt8>(berEncoded: &nodes)
            return .issuerAndSerialNumber(issuer: issuer.encodedBytes, serialNumber: serial)
        }
    }
}
