/// Walks the outer structure of a BER encoding — tags and extents only — without parsing what it skips.
///
/// Receipts are BER: Xcode writes indefinite lengths. Finding where an indefinite-length element ends means
/// scanning its nested elements for the end-of-contents marker; this is done iteratively with a nesting cap of
/// ``maximumDepth``, so hostile nesting cannot recurse or loop. Definite-length elements (every certificate) are
/// skipped in constant time, which is why the CMS layer uses this reader for its skeleton and leaves certificates
/// unparsed until trust evaluation needs them.
struct BERSkeletonReader {
    /// One element: its tag, its content range and its whole encoding (header, content and any end-of-contents).
    struct Element {
        var tag: UInt8
        var content: Range<Int>
        var encoded: Range<Int>

        var isConstructed: Bool { self.tag & 0x20 != 0 }
    }

    static let maximumDepth = 32

    private let buffer: UnsafeRawBufferPointer
    private var position: Int
    private let end: Int

    init(_ buffer: UnsafeRawBufferPointer, range: Range<Int>) {
        self.buffer = buffer
        self.end = min(max(range.upperBound, 0), buffer.count)
        self.position = min(max(range.lowerBound, 0), self.end)
    }

    var isAtEnd: Bool { self.position >= self.end }

    mutating func next() throws(ReceiptError) -> Element? {
        guard self.position < self.end else { return nil }
        let start = self.position
        let header = try Self.header(self.buffer, at: start, end: self.end)
        if let length = header.length {
            self.position = header.contentStart + length
            return Element(
                tag: header.tag,
                content: header.contentStart..<self.position,
                encoded: start..<self.position
            )
        }
        guard header.isConstructed else {
            throw ReceiptError(.malformedContainer, "indefinite length on a primitive element at offset \(start)")
        }
        let contentEnd = try self.endOfIndefiniteContent(from: header.contentStart)
        self.position = contentEnd + 2
        return Element(tag: header.tag, content: header.contentStart..<contentEnd, encoded: start..<self.position)
    }

    /// Reads the next element and requires it to carry `tag`.
    mutating func next(expecting tag: UInt8, _ what: StaticString) throws(ReceiptError) -> Element {
        guard let element = try self.next() else {
            throw ReceiptError(.malformedContainer, "missing \(what)")
        }
        guard element.tag == tag else {
            throw ReceiptError(.malformedContainer, "\(what) has tag 0x\(String(element.tag, radix: 16))")
        }
        return element
    }

    /// The next element if it carries `tag`; otherwise nothing is consumed.
    mutating func next(ifTagged tag: UInt8) throws(ReceiptError) -> Element? {
        guard self.position < self.end, self.buffer[self.position] == tag else { return nil }
        return try self.next()
    }

    /// Returns the offset of the end-of-contents marker closing the indefinite-length content at `start`.
    private func endOfIndefiniteContent(from start: Int) throws(ReceiptError) -> Int {
        var depth = 1
        var cursor = start
        while true {
            guard self.end - cursor >= 2 else {
                throw ReceiptError(.malformedContainer, "indefinite length without end-of-contents")
            }
            if self.buffer[cursor] == 0, self.buffer[cursor + 1] == 0 {
                depth -= 1
                if depth == 0 { return cursor }
                cursor += 2
                continue
            }
            let header = try Self.header(self.buffer, at: cursor, end: self.end)
            if let length = header.length {
                cursor = header.contentStart + length
            } else {
                guard header.isConstructed else {
                    throw ReceiptError(.malformedContainer, "indefinite length on a primitive element")
                }
                depth += 1
                guard depth <= Self.maximumDepth else {
                    throw ReceiptError(.malformedContainer, "nesting deeper than \(Self.maximumDepth)")
                }
                cursor = header.contentStart
            }
        }
    }

    private static func header(
        _ buffer: UnsafeRawBufferPointer,
        at position: Int,
        end: Int
    ) throws(ReceiptError) -> TLVHeader {
        switch TLVHeader.read(buffer, at: position, end: end) {
        case .success(let header): return header
        case .failure(let failure): throw ReceiptError(.malformedContainer, failure.description)
        }
    }
}
