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
/// The fields are delimited with ``BERSkeletonReader``; `digestAlgorithms`, `encapContentInfo` and each
/// `SignerInfo` are then parsed by swift-asn1. Certificates are kept as their exact encoded bytes and parsed by
/// swift-certificates only when trust is evaluated — at most once per process with the trust cache — instead of
/// being taken apart on every decode. Unlike swift-certificates' own CMS types, the certificate SET need not be
/// sorted (Apple's is not). Certificate choices other than a plain `Certificate` (tagged alternatives) are
/// ignored, as RFC 5652 allows.
struct CMSSignedData: Sendable {
    var version: Int
    var digestAlgorithms: [CMSAlgorithmIdentifier]
    var encapContentInfo: CMSEncapsulatedContentInfo
    var certificates: [ArraySlice<UInt8>]
    var signerInfos: [CMSSignerInfo]

    init(_ input: BERInput, _ element: BERSkeletonReader.Element) throws(ReceiptError) {
        var fields = input.reader(element.content)
        let versionField = try fields.next(expecting: 0x02, "SignedData version")
        let versionBytes = input.bytes(versionField.content)
        guard versionBytes.count == 1, let version = versionBytes.first, version <= 5 else {
            throw ReceiptError(.malformedContainer, "unsupported SignedData version")
        }
        self.version = Int(version)

        let digestSet = try fields.next(expecting: 0x31, "digestAlgorithms SET")
        let encap = try fields.next(expecting: 0x30, "encapContentInfo SEQUENCE")
        var certificates: [ArraySlice<UInt8>] = []
        if let set = try fields.next(ifTagged: 0xA0) {
            var children = input.reader(set.content)
            while let child = try children.next() {
                if child.tag == 0x30 { certificates.append(input.bytes(child.encoded)) }
            }
        }
        _ = try fields.next(ifTagged: 0xA1)
        let signerSet = try fields.next(expecting: 0x31, "signerInfos SET")
        guard fields.isAtEnd else {
            throw ReceiptError(.malformedContainer, "trailing fields in the SignedData")
        }
        self.certificates = certificates

        do {
            guard case .constructed(let digestNodes) = try input.node(digestSet).content,
                case .constructed(let signerNodes) = try input.node(signerSet).content
            else {
                throw ReceiptError(.malformedContainer, "SignedData SETs are not constructed")
            }
            self.digestAlgorithms = try digestNodes.map { try CMSAlgorithmIdentifier(berEncoded: $0) }
            self.encapContentInfo = try CMSEncapsulatedContentInfo(berEncoded: try input.node(encap))
            self.signerInfos = try signerNodes.map { try CMSSignerInfo(berEncoded: $0) }
        } catch let error as ReceiptError {
            throw error
        } catch {
            throw ReceiptError(.malformedContainer, "\(error)")
        }
    }
}
