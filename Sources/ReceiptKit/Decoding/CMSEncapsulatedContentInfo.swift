import SwiftASN1

/// ```
/// EncapsulatedContentInfo ::= SEQUENCE {
///     eContentType ContentType,
///     eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
///
/// `eContent` may be BER-constructed: Xcode writes the payload as a constructed OCTET STRING holding one primitive
/// OCTET STRING (the "doubly wrapped" payload). ``content`` is the concatenation of the primitive pieces, which is
/// what the signature covers (RFC 5652 §5.4: "the value of the eContent OCTET STRING").
struct CMSEncapsulatedContentInfo: Sendable {
    var contentType: ASN1ObjectIdentifier
    var content: ArraySlice<UInt8>?

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let contentType = try ASN1ObjectIdentifier(berEncoded: &nodes)
            let content = try BER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) {
                node in
                try ASN1OctetString(berEncoded: node).bytes
            }
            return Self(contentType: contentType, content: content)
        }
    }

    init(contentType: ASN1ObjectIdentifier, content: ArraySlice<UInt8>?) {
        self.contentType = contentType
        self.content = content
    }
}
