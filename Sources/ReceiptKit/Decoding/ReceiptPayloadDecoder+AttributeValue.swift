import struct Foundation.Date
import _ReceiptKitShared

extension ReceiptPayloadDecoder {
    /// The value of one attribute — the content of its OCTET STRING in the payload buffer — read as the kind its
    /// row says: exactly one value filling the OCTET STRING, of the documented ASN.1 type (INTEGER of one to eight
    /// octets, or UTF8String / IA5String / PrintableString), strings valid UTF-8, an empty date string absent.
    ///
    /// The readers return a `Result` with a small ``Problem`` rather than throw: a typed-throws call inside a
    /// visitor method keeps the compiler from inlining the method into the table, which then calls it per row.
    struct AttributeValue {
        /// What is wrong with a value; ``AttributeReader`` turns it into a ``ReceiptError``.
        enum Problem: Error {
            case notOneInteger, notOneValue, notString, notUTF8, notDate

            var reason: StaticString {
                switch self {
                case .notOneInteger: "does not hold exactly one INTEGER"
                case .notOneValue: "does not hold exactly one ASN.1 value"
                case .notString: "is not a string"
                case .notUTF8: "is not valid UTF-8"
                case .notDate: "is not an RFC 3339 date"
                }
            }
        }

        let buffer: UnsafeRawBufferPointer
        let range: Range<Int>
        /// The SET content of the record the attribute belongs to: text spans are relative to its start.
        let record: Range<Int>

        /// A DER INTEGER of one to eight content octets (short-form length) filling the value.
        @inline(__always)
        func integer() -> Result<Int64, Problem> {
            let b = self.buffer
            let start = self.range.lowerBound
            let end = self.range.upperBound
            guard start >= 0, end <= b.count, end - start >= 3, b[start] == 0x02 else {
                return .failure(.notOneInteger)
            }
            let count = Int(b[start + 1])
            guard count >= 1, count <= 8, count == end - start - 2 else { return .failure(.notOneInteger) }
            var value = Int64(Int8(bitPattern: b[start + 2]))
            var index = start + 3
            while index < end {
                value = (value << 8) | Int64(b[index])
                index += 1
            }
            return .success(value)
        }

        /// Where the content of the one string value that must fill the OCTET STRING lies.
        @inline(__always)
        private func stringRange() -> Result<Range<Int>, Problem> {
            let end = self.range.upperBound
            guard case .success(let header) = TLVHeader.read(self.buffer, at: self.range.lowerBound, end: end),
                let length = header.length, header.contentStart + length == end
            else {
                return .failure(.notOneValue)
            }
            switch header.tag {
            case 0x0C, 0x16, 0x13:  // UTF8String, IA5String, PrintableString
                return .success(header.contentStart..<end)
            default:
                return .failure(.notString)
            }
        }

        @inline(__always)
        private func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: self.buffer[range])
        }

        @inline(__always)
        func string() -> Result<String, Problem> {
            self.stringRange().flatMap { range in
                UTF8Validation.string(self.bytes(range)).map(Result.success) ?? .failure(.notUTF8)
            }
        }

        /// Validates a string attribute and records where it is, relative to the start of the record.
        @inline(__always)
        func deferredText() -> Result<DeferredText, Problem> {
            self.stringRange().flatMap { range in
                let bytes = self.bytes(range)
                guard UTF8Validation.isValid(bytes) else { return .failure(.notUTF8) }
                guard let offset = UInt32(exactly: range.lowerBound - self.record.lowerBound),
                    let count = UInt32(exactly: range.count)
                else {
                    return .success(.text(String(decoding: bytes, as: UTF8.self)))
                }
                return .success(.span(offset: offset, count: count))
            }
        }

        @inline(__always)
        func date() -> Result<Date?, Problem> {
            self.stringRange().flatMap { range in
                let content = self.bytes(range)
                if content.isEmpty { return .success(nil) }
                guard let milliseconds = ReceiptDateParser.epochMilliseconds(content) else { return .failure(.notDate) }
                return .success(Date(epochMilliseconds: milliseconds))
            }
        }
    }
}
