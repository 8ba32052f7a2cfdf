/// A minimal DER tag-length-value reader, bounded by its input, for the TBSCertificate fields swift-certificates does
/// not expose as encoded (the serial number's sign, the SubjectPublicKeyInfo bytes a pin hashes) — reading the few
/// headers in front of a field instead of parsing the whole certificate into a tree again. Single-byte tags; lengths
/// of at most four octets.
enum DERHeader {
    struct Element {
        let tag: UInt8
        /// The whole element: tag, length and content.
        let encoded: ArraySlice<UInt8>
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
            let encoded = self.bytes[self.bytes.startIndex..<content.endIndex]
            self.bytes = rest.dropFirst(length)
            return Element(tag: tag, encoded: encoded, content: content)
        }
    }

    /// The fields of an encoded TBSCertificate from serialNumber on (after the optional version), or `nil` when
    /// `tbs` is no SEQUENCE:
    ///
    /// ```
    /// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, serialNumber INTEGER, ... }
    /// ```
    static func fieldsFromSerialNumber(ofTBSCertificate tbs: ArraySlice<UInt8>) -> Reader? {
        var outer = Reader(tbs)
        guard let sequence = outer.next(), sequence.tag == 0x30 else { return nil }
        var fields = Reader(sequence.content)
        var peek = fields
        if peek.next()?.tag == 0xA0 { fields = peek }
        return fields
    }
}
