/// The DER encoding of a UTF8String, which is how Apple stores string attributes such as the bundle identifier.
enum DERUTF8String {
    static func encode(_ string: String) -> [UInt8] {
        let content = Array(string.utf8)
        var bytes: [UInt8] = [0x0C]
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
            bytes.append(contentsOf: lengthBytes)
        }
        bytes.append(contentsOf: content)
        return bytes
    }
}
