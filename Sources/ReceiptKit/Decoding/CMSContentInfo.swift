import SwiftASN1

/// ```
/// ContentInfo ::= SEQUENCE {
///     contentType ContentType,
///     content [0] EXPLICIT ANY DEFINED BY contentType }
/// ```
///
/// A receipt's `contentType` must be `id-signedData` and the ContentInfo must span the whole input.
struct CMSContentInfo: Sendable {
    var signedData: CMSSignedData

    /// DER content octets of `id-signedData` (1.2.840.113549.1.7.2).
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    init(berEncoded source: ArraySlice<UInt8>) throws(ReceiptError) {
        let result = source.withUnsafeBytes { buffer in
            Result { () throws(ReceiptError) -> CMSSignedData in
                try Self.parse(BERInput(buffer: buffer, source: source))
            }
        }
        self.signedData = try result.get()
    }

    private static func parse(_ input: BERInput) throws(ReceiptError) -> CMSSignedData {
        var top = input.reader(0..<input.buffer.count)
        let contentInfo = try top.next(expecting: 0x30, "ContentInfo SEQUENCE")
        guard top.isAtEnd else {
            throw ReceiptError(.malformedContainer, "trailing bytes after the ContentInfo")
        }
        var fields = input.reader(contentInfo.content)
        let contentType = try fields.next(expecting: 0x06, "contentType")
        guard input.bytes(contentType.content).elementsEqual(Self.signedDataOID) else {
            throw ReceiptError(.malformedContainer, "content type is not id-signedData")
        }
        let explicit = try fields.next(expecting: 0xA0, "[0] content")
        guard fields.isAtEnd else {
            throw ReceiptError(.malformedContainer, "trailing fields in the ContentInfo")
        }
        var content = input.reader(explicit.content)
        let signedData = try content.next(expecting: 0x30, "SignedData SEQUENCE")
        guard content.isAtEnd else {
            throw ReceiptError(.malformedContainer, "trailing bytes after the SignedData")
        }
        return try CMSSignedData(input, signedData)
    }
}

/// The bytes being decoded, both as a raw buffer (for the skeleton walk) and as the caller's slice (so that what is
/// kept — certificates, signer infos — are slices of the input, not copies).
struct BERInput {
    let buffer: UnsafeRawBufferPointer
    let source: ArraySlice<UInt8>

    func reader(_ range: Range<Int>) -> BERSkeletonReader {
        BERSkeletonReader(self.buffer, range: range)
    }

    func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        self.source[(self.source.startIndex + range.lowerBound)..<(self.source.startIndex + range.upperBound)]
    }

    /// Parses one element's encoding with swift-asn1's BER parser.
    func node(_ element: BERSkeletonReader.Element) throws(ReceiptError) -> ASN1Node {
        do {
            return try BER.parse(self.bytes(element.encoded))
        } catch {
            throw ReceiptError(.malformedContainer, "\(error)")
        }
    }
}
