import SwiftASN1

/// ```
/// ContentInfo ::= SEQUENCE {
///     contentType ContentType,
///     content [0] EXPLICIT ANY DEFINED BY contentType }
/// ```
///
/// A receipt's `contentType` must be `id-signedData`; anything else is not a receipt.
struct CMSContentInfo: Sendable {
    var signedData: CMSSignedData

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let contentType = try ASN1ObjectIdentifier(berEncoded: &nodes)
            guard contentType == CMSObjectIdentifiers.signedData else {
                throw ASN1Error.invalidASN1Object(reason: "content type \(contentType) is not id-signedData")
            }
            let signedData = try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                try CMSSignedData(berEncoded: node)
            }
            return Self(signedData: signedData)
        }
    }

    init(signedData: CMSSignedData) {
        self.signedData = signedData
    }
}
