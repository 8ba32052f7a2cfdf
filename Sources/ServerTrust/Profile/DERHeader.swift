/// A minimal DER tag-length-value reader, bounded by its input, for the one field swift-certificates does not
/// expose as encoded (the serial number's sign). Single-byte tags; lengths of at most four octets.
enum DERHeader {
    struct Element {
        let tag: UInt8
        let content: ArraySlice<UInt8>
    }

    struct Reader {
        private var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
        }

        /// The next element, or `nil` at the end or when the encoding runs past the input.
        mutating func next() -> Element? {
            guard let tag = self.bytes.first, tag & 0x1F != 0x1F else { return nil }
            var rest = self.bytes.dropFirst()
            guard let first = rest.popFirst() else { return nil }
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard (1...4).contains(count), rest.count >= count else { return nil }
                for _ in 0..<count {
                    guard let byte = rest.popFirst() else { return nil }
                    length = length << 8 | Int(byte)
                }
            }
            guard length <= rest.count else { return nil }
            let content = rest.prefix(length)
            self.bytes = rest.dropFirst(length)
            return Element(tag: tag, content: content)
        }
    }
}
