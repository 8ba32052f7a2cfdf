import SwiftASN1

/// ```
/// SignerInfo ::= SEQUENCE {
///     version CMSVersion,
///     sid SignerIdentifier,
///     digestAlgorithm DigestAlgorithmIdentifier,
///     signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL,
///     signatureAlgorithm SignatureAlgorithmIdentifier,
///     signature SignatureValue,
///     unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// SignedAttributes ::= SET SIZE (1..MAX) OF Attribute
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
/// ```
///
/// Apple's receipts carry no signed attributes and name plain `rsaEncryption` as the signature algorithm; Xcode's
/// name `sha256WithRSAEncryption`. Both are accepted. Signed attributes are kept as received: their bytes are
/// re-tagged as a SET and verified (RFC 5652 §5.4), so they must be DER (definite lengths).
struct CMSSignerInfo: Sendable {
    struct Attribute: Sendable {
        var type: ASN1ObjectIdentifier
        var values: [ASN1Node]
    }

    /// The signed attributes: their exact encoding (with the `[0]` tag) and their parsed form.
    struct SignedAttributes: Sendable {
        var encodedBytes: ArraySlice<UInt8>
        var attributes: [Attribute]
    }

    var version: Int
    var signerIdentifier: CMSSignerIdentifier
    var digestAlgorithm: CMSAlgorithmIdentifier
    var signedAttributes: SignedAttributes?
    var signatureAlgorithm: CMSAlgorithmIdentifier
    var signature: ArraySlice<UInt8>

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let version = try Int(berEncoded: &nodes)
            guard let sidNode = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "SignerInfo without sid")
            }
            let sid = try CMSSignerIdentifier(berEncoded: sidNode)
            let digestAlgorithm = try CMSAlgorithmIdentifier(berEncoded: &nodes)
            let signedAttributes = try BER.optionalImplicitlyTagged(
                &nodes,
                tagNumber: 0,
                tagClass: .contextSpecific
            ) { node in
                try Self.parseSignedAttributes(node)
            }
            let signatureAlgorithm = try CMSAlgorithmIdentifier(berEncoded: &nodes)
            let signature = try ASN1OctetString(berEncoded: &nodes).bytes
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }
            return Self(
                version: version,
                signerIdentifier: sid,
                digestAlgorithm: digestAlgorithm,
                signedAttributes: signedAttributes,
                signatureAlgorithm: signatureAlgorithm,
                signature: signature
            )
        }
    }

    init(
        version: Int,
        signerIdentifier: CMSSignerIdentifier,
        digestAlgorithm: CMSAlgorithmIdentifier,
        signedAttributes: SignedAttributes?,
        signatureAlgorithm: CMSAlgorithmIdentifier,
        signature: ArraySlice<UInt8>
    ) {
        self.version = version
        self.signerIdentifier = signerIdentifier
        self.digestAlgorithm = digestAlgorithm
        self.signedAttributes = signedAttributes
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
    }

    private static func parseSignedAttributes(_ node: ASN1Node) throws -> SignedAttributes {
        // RFC 5652 §5.3: signed attributes MUST be DER encoded; an indefinite length cannot be re-tagged to DER.
        let bytes = node.encodedBytes
        guard bytes.count >= 2, bytes[bytes.startIndex + 1] != 0x80 else {
            throw ASN1Error.invalidASN1Object(reason: "signed attributes are not DER encoded")
        }
        guard case .constructed(let children) = node.content else {
            throw ASN1Error.invalidASN1Object(reason: "signed attributes are not a SET")
        }
        var attributes: [Attribute] = []
        for child in children {
            let attribute = try BER.sequence(child, identifier: .sequence) { nodes in
                let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
                guard let valuesNode = nodes.next(), valuesNode.identifier == .set,
                    case .constructed(let values) = valuesNode.content
                else {
                    throw ASN1Error.invalidASN1Object(reason: "attribute without a SET of values")
                }
                return Attribute(type: type, values: Array(values))
            }
            attributes.append(attribute)
        }
        guard !attributes.isEmpty else {
            throw ASN1Error.invalidASN1Object(reason: "empty signed attributes")
        }
        return SignedAttributes(encodedBytes: bytes, attributes: attributes)
    }
}
