import struct Foundation.Date
import _ReceiptKitShared

extension ReceiptPayloadDecoder {
    /// Reads one attribute into the row of a record's table that has its type: the decoder's side of the tables.
    ///
    /// A documented attribute must hold its documented ASN.1 type (UTF8String / IA5String / INTEGER), exactly one
    /// value filling the OCTET STRING; strings must be valid UTF-8; an empty date string means "absent". Every row
    /// compares its type with the attribute's, and the tables are inlined: the walk compiles to direct stores.
    struct AttributeReader: ReceiptFieldVisitor {
        typealias Failure = ReceiptError

        private let input: Input
        private let attribute: RawAttribute
        /// The SET content of the record being decoded: text spans are relative to its start.
        private let record: Range<Int>
        private let configuration: ReceiptDecodingConfiguration
        /// Whether a row read the attribute (otherwise it is undocumented).
        private(set) var matched = false

        @inline(__always)
        init(
            _ input: Input,
            _ attribute: RawAttribute,
            record: Range<Int>,
            _ configuration: ReceiptDecodingConfiguration
        ) {
            self.input = input
            self.attribute = attribute
            self.record = record
            self.configuration = configuration
        }

        @inline(__always)
        private mutating func claims(_ type: Int64) -> Bool {
            guard type == self.attribute.type else { return false }
            self.matched = true
            return true
        }

        @inline(__always)
        mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) throws(Failure) {
            if self.claims(type) { value = try self.integer() }
        }

        @inline(__always)
        mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) throws(Failure) {
            if self.claims(type) { value = try self.integer() != 0 }
        }

        @inline(__always)
        mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) throws(Failure) {
            if self.claims(type) { value = try self.date() }
        }

        @inline(__always)
        mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) throws(Failure) {
            if self.claims(type) { value = try self.string() }
        }

        @inline(__always)
        mutating func string(
            _ type: Int64,
            _ key: StaticString,
            _ value: inout String?,
            der: inout [UInt8]?
        ) throws(Failure) {
            guard self.claims(type) else { return }
            value = try self.string()
            der = Array(self.input.slice(self.attribute.value))
        }

        @inline(__always)
        mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) throws(Failure) {
            if self.claims(type) { value = try self.deferredText() }
        }

        @inline(__always)
        mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) {
            if self.claims(type) { value = Array(self.input.slice(self.attribute.value)) }
        }

        /// Decodes the record in place: an InAppPurchase is a large value, not worth copying into the array.
        @inline(__always)
        mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) throws(Failure) {
            guard self.claims(type) else { return }
            let maximum = self.configuration.maximumPurchaseCount
            guard value.count < maximum else {
                throw ReceiptError(.tooManyPurchases, "more than \(maximum) in-app purchases")
            }
            value.append(InAppPurchase(raw: []))
            try ReceiptPayloadDecoder.decodePurchase(
                self.input,
                self.attribute.value,
                into: &value[value.count - 1],
                configuration: self.configuration
            )
        }

        @inline(__always)
        mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {}

        @inline(__always)
        mutating func requestDate(_ key: StaticString) {}

        // MARK: The attribute's value

        private var buffer: UnsafeRawBufferPointer { self.input.buffer }
        private var range: Range<Int> { self.attribute.value }

        private func malformed(_ what: StaticString) -> ReceiptError {
            ReceiptError(.malformedPayload, "attribute \(self.attribute.type) \(what)")
        }

        @inline(__always)
        private func integer() throws(ReceiptError) -> Int64 {
            var cursor = self.range.lowerBound
            let end = self.range.upperBound
            let integer = try ReceiptPayloadDecoder.smallInteger(self.buffer, &cursor, end, "INTEGER value")
            guard cursor == end else { throw self.malformed("does not hold exactly one INTEGER") }
            return integer
        }

        /// The content of the one string value that must fill the OCTET STRING.
        @inline(__always)
        private func stringRange() throws(ReceiptError) -> Range<Int> {
            let header = try ReceiptPayloadDecoder.header(self.buffer, self.range.lowerBound, self.range.upperBound)
            guard let length = header.length, header.contentStart + length == self.range.upperBound else {
                throw self.malformed("does not hold exactly one ASN.1 value")
            }
            switch header.tag {
            case 0x0C, 0x16, 0x13:  // UTF8String, IA5String, PrintableString
                return header.contentStart..<self.range.upperBound
            default:
                throw self.malformed("is not a string")
            }
        }

        @inline(__always)
        private func string() throws(ReceiptError) -> String {
            let content = UnsafeRawBufferPointer(rebasing: self.buffer[try self.stringRange()])
            guard let string = UTF8Validation.string(content) else { throw self.malformed("is not valid UTF-8") }
            return string
        }

        /// Validates a string attribute and records where it is, relative to the start of the record.
        @inline(__always)
        private func deferredText() throws(ReceiptError) -> DeferredText {
            let range = try self.stringRange()
            let bytes = UnsafeRawBufferPointer(rebasing: self.buffer[range])
            guard UTF8Validation.isValid(bytes) else { throw self.malformed("is not valid UTF-8") }
            guard let offset = UInt32(exactly: range.lowerBound - self.record.lowerBound),
                let count = UInt32(exactly: range.count)
            else {
                return .text(String(decoding: bytes, as: UTF8.self))
            }
            return .span(offset: offset, count: count)
        }

        @inline(__always)
        private func date() throws(ReceiptError) -> Date? {
            let content = UnsafeRawBufferPointer(rebasing: self.buffer[try self.stringRange()])
            if content.isEmpty { return nil }
            guard let milliseconds = ReceiptDateParser.epochMilliseconds(content) else {
                throw self.malformed("is not an RFC 3339 date")
            }
            return Date(epochMilliseconds: milliseconds)
        }
    }
}
