import SwiftASN1

/// ```
/// SignedData ::= SEQUENCE {
///     version CMSVersion,
///     digestAlgorithms DigestAlgorithmIdentifiers,
///     encapContentInfo EncapsulatedContentInfo,
///     certificates [0] IMPLICIT CertificateSet OPTIONAL,
///     crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///     signerInfos SignerInfos }
/// DigestAlgorithmIdentifiers ::= SET OF DigestAlgorithmIdentifier
/// SignerInfos ::= SET OF SignerInfo
/// ```
///
/// Unlike swift-certificates' own CMS types, this reader does not require the certificate SET to be sorted (Apple's
/// is not — a DER violation every real receipt has) and keeps each certificate as its exact encoded bytes, to be
/// parsed by swift-certificates only when trust is evaluated. Certificate choices other than a plain
/// `Certificate` (attribute certificates, `other`) are ignored, as RFC 5652 allows.
struct CMSSignedData: Sendable {
    var version: Int
    var digestAlgorithms: [CMSAlgorithmIdentifier]
    var encapContentInfo: CMSEncapsulatedContentInfo
    var certificates: [ArraySlice<UInt8>]
    var signerInfos: [CMSSignerInfo]

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let version = try Int(berEncoded: &nodes)
            guard let digestSet = nodes.next(), digestSet.identifier == .set,
                case .constructed(let digestNodes) = digestSet.content
            else {
                throw ASN1Error.invalidASN1Object(reason: "SignedData without digestAlgorithms")
            }
            var digestAlgorithms: [CMSAlgorithmIdentifier] = []
            for digest in digestNodes {
                digestAlgorithms.append(try CMSAlgorithmIdentifier(berEncoded: digest))
            }
            guard let encapNode = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "SignedData without encapContentInfo")
            }
            let encap = try CMSEncapsulatedContentInfo(berEncoded: encapNode)

            var certificates: [ArraySlice<UInt8>] = []
            if let set = BER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific, { $0 }) {
                guard case .constructed(let children) = set.content else {
                    throw ASN1Error.invalidASN1Object(reason: "certificates is not a SET")
                }
                for child in children where child.identifier == .sequence {
                    certificates.append(child.encodedBytes)
                }
            }
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }

            guard let signerSet = nodes.next(), signerSet.identifier == .set,
                case .constructed(let signerNodes) = signerSet.content
            else {
                throw ASN1Error.invalidASN1Object(reason: "SignedData without signerInfos")
            }
            var signerInfos: [CMSSignerInfo] = []
            for signer in signerNodes {
                signerInfos.append(try CMSSignerInfo(berEncoded: signer))
            }
            return Self(
                version: version,
                digestAlgorithms: digestAlgorithms,
                encapContentInfo: encap,
                certificates: certificates,
                signerInfos: signerInfos
            )
        }
    }

    init(
        version: Int,
        digestAlgorithms: [CMSAlgorithmIdentifier],
        encapContentInfo: CMSEncapsulatedContentInfo,
        certificates: [ArraySlice<UInt8>],
        signerInfos: [CMSSignerInfo]
    ) {
        self.version = version
        self.digestAlgorithms = digestAlgorithms
        self.encapContentInfo = encapContentInfo
        self.certificates = certificates
        self.signerInfos = signerInfos
    }
}
