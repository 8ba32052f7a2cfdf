import struct Foundation.Date

extension ReceiptPayloadDecoder {
    /// Reads each attribute of one record into the row of the record's table that has its type: the decoder's side
    /// of the tables. One reader serves a whole record; ``begin(_:)`` hands it the next attribute that has a row.
    ///
    /// Every row compares its type with the attribute's, and the tables are inlined: the walk compiles to direct
    /// stores. A row that fails keeps its error for ``end()``.
    struct AttributeReader: ReceiptFieldVisitor {
        private let input: Input
        /// The SET content of the record being decoded.
        private let record: Range<Int>
        private let configuration: ReceiptDecodingConfiguration
        private var attribute = RawAttribute(type: -1, version: 0, value: 0..<0)
        /// What the row that claimed an attribute found wrong with it (attribute type, problem), or the error
        /// decoding a purchase record met.
        private var failure: ReceiptError?

        init(_ input: Input, record: Range<Int>, _ configuration: ReceiptDecodingConfiguration) {
            self.input = input
            self.record = record
            self.configuration = configuration
        }

        @inline(__always)
        mutating func begin(_ attribute: RawAttribute) {
            self.attribute = attribute
        }

        /// Throws what the row that read the attribute met.
        @inline(__always)
        func end() throws(ReceiptError) {
            if let failure = self.failure { throw failure }
        }

        /// Whether the row of `type` reads the attribute.
        @inline(__always)
        private func claims(_ type: Int64) -> Bool {
            type == self.attribute.type
        }

        /// The value of the attribute, for the row that claimed it.
        private var value: AttributeValue {
            AttributeValue(buffer: self.input.buffer, range: self.attribute.value, record: self.record)
        }

        @inline(__always)
        private mutating func store<T>(_ result: Result<T, AttributeValue.Problem>, into value: inout T?) {
            switch result {
            case .success(let read): value = read
            case .failure(let problem): self.fail(problem)
            }
        }

        @inline(__always)
        private mutating func store<T>(_ result: Result<T, AttributeValue.Problem>, into value: inout T) {
            switch result {
            case .success(let read): value = read
            case .failure(let problem): self.fail(problem)
            }
        }

        @inline(never)
        private mutating func fail(_ problem: AttributeValue.Problem) {
            self.failure = ReceiptError(.malformedPayload, "attribute \(self.attribute.type) \(problem.reason)")
        }

        // Each row compares inline and reads out of line, so the table stays small enough to inline into the walk.

        @inline(__always)
        mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) {
            if type == self.attribute.type { self.readInteger(&value) }
        }

        @inline(__always)
        mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) {
            if type == self.attribute.type { self.readFlag(&value) }
        }

        @inline(__always)
        mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) {
            if type == self.attribute.type { self.readDate(&value) }
        }

        @inline(__always)
        mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) {
            if type == self.attribute.type { self.readString(&value) }
        }

        @inline(__always)
        mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) {
            guard type == self.attribute.type else { return }
            self.readString(&value)
            der = Array(self.input.slice(self.attribute.value))
        }

        @inline(__always)
        mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) {
            if type == self.attribute.type { self.readText(&value) }
        }

        @inline(never)
        private mutating func readInteger(_ value: inout Int64?) {
            self.store(self.value.integer(), into: &value)
        }

        @inline(never)
        private mutating func readFlag(_ value: inout Bool?) {
            self.store(self.value.integer().map { $0 != 0 }, into: &value)
        }

        @inline(never)
        private mutating func readDate(_ value: inout Date?) {
            self.store(self.value.date(), into: &value)
        }

        @inline(never)
        private mutating func readString(_ value: inout String?) {
            self.store(self.value.string(), into: &value)
        }

        @inline(never)
        private mutating func readText(_ value: inout DeferredText) {
            self.store(self.value.deferredText(), into: &value)
        }

        @inline(__always)
        mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) {
            if self.claims(type) { value = Array(self.input.slice(self.attribute.value)) }
        }

        /// Decodes the record in place: an InAppPurchase is a large value, not worth copying into the array.
        @inline(__always)
        mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) {
            guard self.claims(type) else { return }
            let maximum = self.configuration.maximumPurchaseCount
            guard value.count < maximum else {
                self.failure = ReceiptError(.tooManyPurchases, "more than \(maximum) in-app purchases")
                return
            }
            value.append(InAppPurchase(raw: []))
            let result = ReceiptPayloadDecoder.decodePurchase(
                self.input,
                self.attribute.value,
                into: &value[value.count - 1],
                configuration: self.configuration
            )
            if case .failure(let error) = result { self.failure = error }
        }

        @inline(__always)
        mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {}

        @inline(__always)
        mutating func requestDate(_ key: StaticString) {}
    }
}
