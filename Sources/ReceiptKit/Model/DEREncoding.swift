/// DER encoding helpers shared, within this package, by the model (a receipt's bundle identifier bytes) and by
/// `ReceiptKitTesting` (minting).
package enum DEREncoding {
    /// `tag`, the DER definite length of `content`, then `content`.
    package static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [tag]
        if content.count < 0x80 {
            bytes.append(UInt8(content.count))
        } else {
            var length = content.count
            var lengthBytes: [UInt8] = []
            while length > 0 {
                lengthBytes.insert(UInt8(truncatingIfNeeded: length), at: 0)
                length >>= 8
            }
            bytes.append(0x80 | UInt8(lengthBytes.count))
            bytes += lengthBytes
        }
        return bytes + content
    }

    /// A UTF8String: how Apple stores string attributes such as the bundle identifier.
    package static func utf8String(_ string: String) -> [UInt8] {
        Self.element(0x0C, Array(string.utf8))
    }
}
