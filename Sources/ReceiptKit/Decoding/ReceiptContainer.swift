/// A receipt taken apart but not yet trusted: the signed content bytes, the embedded certificates, the single
/// signer, and the decoded payload.
///
/// This is the boundary between decoding and validation. It holds slices of the input, so the bytes that are
/// hashed and verified are exactly the bytes received.
struct ReceiptContainer: Sendable {
    var content: ArraySlice<UInt8>
    var certificates: [ArraySlice<UInt8>]
    var signer: CMSSignerInfo
    var receipt: AppReceipt

    /// Decodes a DER or BER encoded receipt.
    ///
    /// Checks run cheap to expensive: the size cap first, then the CMS structure (a bounded skeleton walk, with
    /// swift-asn1 parsing the small productions), then the payload walk.
    static func decode(
        _ bytes: ArraySlice<UInt8>,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> ReceiptContainer {
        guard bytes.count <= configuration.maximumInputSize else {
            throw ReceiptError(
                .inputTooLarge,
                "input of \(bytes.count) bytes exceeds the limit of \(configuration.maximumInputSize)"
            )
        }
        let signedData = try CMSContentInfo(berEncoded: bytes).signedData
        guard signedData.encapContentInfo.contentType == CMSObjectIdentifiers.data else {
            throw ReceiptError(.malformedContainer, "encapsulated content type is not id-data")
        }
        guard let content = signedData.encapContentInfo.content else {
            throw ReceiptError(.malformedContainer, "detached content: the receipt payload is missing")
        }
        guard signedData.certificates.count <= configuration.maximumCertificateCount else {
            throw ReceiptError(
                .malformedContainer,
                "\(signedData.certificates.count) embedded certificates exceed the limit of \(configuration.maximumCertificateCount)"
            )
        }
        guard signedData.signerInfos.count == 1, let signer = signedData.signerInfos.first else {
            throw ReceiptError(
                .malformedContainer,
                "a receipt has exactly one signer, this one has \(signedData.signerInfos.count)"
            )
        }
        let receipt = try ReceiptPayloadDecoder.decode(content, configuration: configuration)
        return ReceiptContainer(
            content: content,
            certificates: signedData.certificates,
            signer: signer,
            receipt: receipt
        )
    }
}
