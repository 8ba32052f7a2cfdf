/// A bounded, zero-copy reader of DER tag-length-value triples, used for the receipt payload.
///
/// The payload is read with this reader instead of `DER.parse` because building a node tree per attribute costs
/// about a microsecond per attribute, seventy times more than reading the triples in place. The reader accepts only
/// what Apple's payload uses: single-byte tags and definite lengths (short form, or long form of at most eight
/// bytes). Every length is checked against the bytes that remain before it is used, so no input can make it read
/// out of bounds, overflow an index, or loop.
struct PayloadTLVReader {
    /// One triple: its tag byte and the range of its content inside the reader's buffer.
    struct Element {
        var tag: UInt8
        var content: Range<Int>
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int
    private let end: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.end = bytes.endIndex
    }

    init(_ bytes: ArraySlice<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { self.position >= self.end }

    /// Reads the next triple, or returns `nil` when the range is exhausted.
    mutating func next() throws(ReceiptError) -> Element? {
        guard self.position < self.end else { return nil }
        let tag = self.bytes[self.position]
        guard tag & 0x1F != 0x1F else {
            throw ReceiptError(.malformedPayload, "multi-byte ASN.1 tags are not used in receipt payloads")
        }
        var cursor = self.position + 1
        guard cursor < self.end else {
            throw ReceiptError(.malformedPayload, "truncated length at offset \(cursor)")
        }
        let first = self.bytes[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            throw ReceiptError(.malformedPayload, "indefinite length inside the receipt payload")
        } else {
            let count = Int(first & 0x7F)
            guard count <= 8, count <= self.end - cursor else {
                throw ReceiptError(.malformedPayload, "length of \(count) bytes at offset \(cursor - 1)")
            }
            for _ in 0..<count {
                guard length >> 55 == 0 else {
                    throw ReceiptError(.malformedPayload, "length overflows at offset \(cursor)")
                }
                length = (length << 8) | Int(self.bytes[cursor])
                cursor += 1
            }
        }
        guard length <= self.end - cursor else {
            throw ReceiptError(.malformedPayload, "length \(length) exceeds the \(self.end - cursor) bytes left")
        }
        self.position = cursor + length
        return Element(tag: tag, content: cursor..<(cursor + length))
    }

    /// Reads the next triple and requires it to exist and carry `tag`.
    mutating func next(expecting tag: UInt8, _ what: @autoclosure () -> String) throws(ReceiptError) -> Element {
        guard let element = try self.next() else {
            throw ReceiptError(.malformedPayload, "missing \(what())")
        }
        guard element.tag == tag else {
            throw ReceiptError(.malformedPayload, "\(what()) has tag 0x\(String(element.tag, radix: 16))")
        }
        return element
    }
}
