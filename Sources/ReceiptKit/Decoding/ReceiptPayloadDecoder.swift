import struct Foundation.Date
import _ReceiptKitShared

/// Decodes the signed content of a receipt — `Payload ::= SET OF ReceiptAttribute` — into an ``AppReceipt``.
///
/// ```
/// ReceiptAttribute ::= SEQUENCE {
///     type    INTEGER,
///     version INTEGER,
///     value   OCTET STRING }
/// Payload ::= SET OF ReceiptAttribute
/// ```
///
/// Attribute 17 (in-app purchase) holds another `Payload` whose attributes use types 1701 and up; it is read by the
/// same walk one level down, never recursively. Rules, each covered by tests:
/// - every attribute must have exactly the three fields above, DER encoded; trailing bytes anywhere are malformed;
/// - a documented attribute — one with a row in the table of ``AppReceipt`` or ``InAppPurchase``, which
///   ``AttributeReader`` reads each attribute into — must hold its documented ASN.1 type (UTF8String / IA5String /
///   INTEGER), and strings must be valid UTF-8; an empty date string means "absent";
/// - a documented attribute that appears twice is malformed (Apple never repeats one, and a second bundle
///   identifier is exactly what a confused-deputy attack would add); undocumented attributes may repeat and are kept
///   raw, in order, as slices of the input.
///
/// The walk reads a raw buffer with explicit bounds checks (see ``TLVHeader``): it is the hot path of decoding,
/// about 20 attributes per purchase and up to hundreds of purchases per receipt.
enum ReceiptPayloadDecoder {
    static func decode(
        _ bytes: ArraySlice<UInt8>,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> AppReceipt {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ReceiptError) -> AppReceipt in
                try Self.decode(Input(buffer: buffer, source: bytes), configuration: configuration)
            }
        }
        return try result.get()
    }

    /// The payload as a raw buffer, and as the caller's slice from which raw values are sliced without copying.
    struct Input {
        let buffer: UnsafeRawBufferPointer
        let source: ArraySlice<UInt8>

        func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
            self.source[(self.source.startIndex + range.lowerBound)..<(self.source.startIndex + range.upperBound)]
        }
    }

    struct RawAttribute {
        var type: Int64
        var version: Int64
        var value: Range<Int>
    }

    /// Bit `t` is set for each documented app attribute type `t` that must not repeat (every row of
    /// ``AppReceipt``'s table but the purchases).
    private static let appAttributeTypes = AppReceipt.typeMask(of: AppReceipt(), base: 0)
    /// Bit `t - 1700` is set for each documented purchase attribute type `t` (the rows of ``InAppPurchase``'s table).
    private static let purchaseAttributeTypes = InAppPurchase.typeMask(of: InAppPurchase(), base: 1700)
    /// The type of the app attribute that holds an in-app purchase record (the table's one repeating row).
    private static let purchaseType = ReceiptFieldEntries.of(AppReceipt()).first(where: \.repeats)?.type

    private static func decode(
        _ input: Input,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> AppReceipt {
        let set = try Self.payloadSet(input.buffer, 0..<input.buffer.count, "receipt payload")
        var receipt = AppReceipt()
        receipt.inAppPurchases.reserveCapacity(
            min(Self.countPurchases(input.buffer, set), configuration.maximumPurchaseCount)
        )
        var reader = AttributeReader(input, record: set, configuration)
        let purchaseType = Self.purchaseType
        try Self.walk(input.buffer, set, documented: Self.appAttributeTypes, base: 0, configuration) {
            (attribute, documented) throws(ReceiptError) in
            // A documented attribute or a purchase has a row; the others skip the table and are kept raw.
            guard documented || attribute.type == purchaseType else {
                let (type, version, value) = (attribute.type, attribute.version, input.slice(attribute.value))
                receipt.otherAttributes.append(ReceiptAttribute(type: type, version: version, value: value))
                return
            }
            reader.begin(attribute)
            AppReceipt.visitFields(of: &receipt, with: &reader)
            try reader.end()
        }
        return receipt
    }

    /// Reads every attribute of the SET content `set`, enforcing the attribute cap and that documented types —
    /// bit `type - base` of `documented` — appear at most once, and hands each to `body` with whether it is one.
    @inline(__always)
    private static func walk(
        _ b: UnsafeRawBufferPointer,
        _ set: Range<Int>,
        documented: UInt64,
        base: Int64,
        _ configuration: ReceiptDecodingConfiguration,
        _ body: (RawAttribute, Bool) throws(ReceiptError) -> Void
    ) throws(ReceiptError) {
        var seen: UInt64 = 0
        var attributeCount = 0
        var position = set.lowerBound
        while position < set.upperBound {
            let attribute = try Self.readAttribute(b, &position, set.upperBound)
            attributeCount += 1
            guard attributeCount <= configuration.maximumAttributeCount else {
                throw ReceiptError(.tooManyAttributes, "more than \(configuration.maximumAttributeCount) attributes")
            }
            let bit = attribute.type &- base
            let isDocumented = bit >= 0 && bit < 64 && documented & (1 << bit) != 0
            if isDocumented {
                guard seen & (1 << bit) == 0 else {
                    throw ReceiptError(.malformedPayload, "attribute \(attribute.type) appears more than once")
                }
                seen |= 1 << bit
            }
            try body(attribute, isDocumented)
        }
    }

    /// Counts the in-app purchase attributes (type 17) with a header-only pass, so the purchase array is allocated
    /// once. Stops quietly at the first malformed attribute: the full walk that follows reports it.
    private static func countPurchases(_ b: UnsafeRawBufferPointer, _ set: Range<Int>) -> Int {
        let purchaseType = Self.purchaseType
        var count = 0
        var position = set.lowerBound
        while position < set.upperBound {
            guard let attribute = try? Self.readAttribute(b, &position, set.upperBound) else { break }
            if attribute.type == purchaseType { count += 1 }
        }
        return count
    }

    /// Decodes one in-app purchase record into `purchase`; the `Result` keeps typed throws out of the visitor
    /// method that calls it (see ``AttributeValue``).
    @inline(never)
    static func decodePurchase(
        _ input: Input,
        _ range: Range<Int>,
        into purchase: inout InAppPurchase,
        configuration: ReceiptDecodingConfiguration
    ) -> Result<Void, ReceiptError> {
        Result { () throws(ReceiptError) in
            try Self.decodePurchaseRecord(input, range, into: &purchase, configuration: configuration)
        }
    }

    private static func decodePurchaseRecord(
        _ input: Input,
        _ range: Range<Int>,
        into purchase: inout InAppPurchase,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) {
        let set = try Self.payloadSet(input.buffer, range, "in-app purchase")
        purchase.raw = input.slice(set)
        var reader = AttributeReader(input, record: set, configuration)
        try Self.walk(input.buffer, set, documented: Self.purchaseAttributeTypes, base: 1700, configuration) {
            (attribute, documented) throws(ReceiptError) in
            // An attribute without a row stays in `raw`; InAppPurchase.otherAttributes lists them on demand.
            guard documented else { return }
            reader.begin(attribute)
            InAppPurchase.visitFields(of: &purchase, with: &reader)
            try reader.end()
        }
    }

    /// Reads the `SET` that must fill `range` exactly and returns its content range.
    private static func payloadSet(
        _ b: UnsafeRawBufferPointer,
        _ range: Range<Int>,
        _ what: StaticString
    ) throws(ReceiptError) -> Range<Int> {
        let header = try Self.header(b, range.lowerBound, range.upperBound)
        guard header.tag == 0x31, let length = header.length, header.contentStart + length == range.upperBound else {
            throw ReceiptError(.malformedPayload, "\(what) is not a SET filling its value")
        }
        return header.contentStart..<range.upperBound
    }

    @inline(__always)
    static func header(
        _ b: UnsafeRawBufferPointer,
        _ position: Int,
        _ end: Int
    ) throws(ReceiptError) -> TLVHeader {
        switch TLVHeader.read(b, at: position, end: end) {
        case .success(let header):
            guard header.length != nil else {
                throw ReceiptError(.malformedPayload, "indefinite length inside the receipt payload")
            }
            return header
        case .failure(let failure):
            throw ReceiptError(.malformedPayload, failure.description)
        }
    }

    /// Reads one `ReceiptAttribute` at `position` (which must be below `end`) and advances past it.
    ///
    /// Almost every attribute is short: a SEQUENCE and OCTET STRING with one-byte lengths, type and version
    /// INTEGERs of one or two octets. That shape is read directly; anything else takes the general path, which
    /// accepts every DER length form. Both paths apply the same checks.
    @inline(__always)
    private static func readAttribute(
        _ b: UnsafeRawBufferPointer,
        _ position: inout Int,
        _ end: Int
    ) throws(ReceiptError) -> RawAttribute {
        let p = position
        // Fast path. Reads up to p + 3 are below end (end - p >= 10); every later read is below fieldsEnd, which
        // is at most end (checked), and end is at most b.count (checked).
        if p >= 0, end <= b.count, end - p >= 10, b[p] == 0x30, b[p + 1] < 0x80, b[p + 2] == 0x02 {
            let fieldsEnd = p + 2 + Int(b[p + 1])
            let typeCount = Int(b[p + 3])
            if fieldsEnd <= end, typeCount >= 1, typeCount <= 2, p + 4 + typeCount + 5 <= fieldsEnd {
                var type = Int64(Int8(bitPattern: b[p + 4]))
                if typeCount == 2 { type = (type << 8) | Int64(b[p + 5]) }
                let v = p + 4 + typeCount
                if b[v] == 0x02, b[v + 1] == 0x01, b[v + 3] == 0x04, b[v + 4] < 0x80,
                    v + 5 + Int(b[v + 4]) == fieldsEnd
                {
                    position = fieldsEnd
                    return RawAttribute(
                        type: type,
                        version: Int64(Int8(bitPattern: b[v + 2])),
                        value: (v + 5)..<fieldsEnd
                    )
                }
            }
        }
        return try Self.readAttributeGeneral(b, &position, end)
    }

    private static func readAttributeGeneral(
        _ b: UnsafeRawBufferPointer,
        _ position: inout Int,
        _ end: Int
    ) throws(ReceiptError) -> RawAttribute {
        let sequence = try Self.header(b, position, end)
        guard sequence.tag == 0x30, let sequenceLength = sequence.length else {
            throw ReceiptError(.malformedPayload, "receipt attribute is not a SEQUENCE")
        }
        let fieldsEnd = sequence.contentStart + sequenceLength
        var cursor = sequence.contentStart
        let type = try Self.smallInteger(b, &cursor, fieldsEnd, "attribute type")
        let version = try Self.smallInteger(b, &cursor, fieldsEnd, "attribute version")
        let value = try Self.header(b, cursor, fieldsEnd)
        guard value.tag == 0x04, let valueLength = value.length else {
            throw ReceiptError(.malformedPayload, "attribute \(type) value is not an OCTET STRING")
        }
        guard value.contentStart + valueLength == fieldsEnd else {
            throw ReceiptError(.malformedPayload, "attribute \(type) has trailing fields")
        }
        position = fieldsEnd
        return RawAttribute(type: type, version: version, value: value.contentStart..<fieldsEnd)
    }

    /// Reads a DER INTEGER of one to eight content octets (short-form length) at `cursor`.
    @inline(__always)
    static func smallInteger(
        _ b: UnsafeRawBufferPointer,
        _ cursor: inout Int,
        _ end: Int,
        _ what: StaticString
    ) throws(ReceiptError) -> Int64 {
        guard cursor >= 0, end <= b.count, end - cursor >= 3, b[cursor] == 0x02 else {
            throw ReceiptError(.malformedPayload, "missing or mistyped \(what)")
        }
        let count = Int(b[cursor + 1])
        guard count >= 1, count <= 8, count <= end - cursor - 2 else {
            throw ReceiptError(.malformedPayload, "\(what) is an INTEGER of \(count) octets")
        }
        let start = cursor + 2
        var value = Int64(Int8(bitPattern: b[start]))
        var index = start + 1
        while index < start + count {
            value = (value << 8) | Int64(b[index])
            index += 1
        }
        cursor = start + count
        return value
    }

    /// The undocumented attributes of an in-app purchase record's SET content, in order. The content was
    /// validated when it was decoded; should it not walk, the list ends where it stops.
    static func undocumentedPurchaseAttributes(in raw: ArraySlice<UInt8>) -> [ReceiptAttribute] {
        raw.withUnsafeBytes { b in
            var attributes: [ReceiptAttribute] = []
            var position = 0
            while position < b.count {
                guard let attribute = try? Self.readAttribute(b, &position, b.count) else { break }
                let bit = attribute.type &- 1700
                if bit >= 0, bit < 64, Self.purchaseAttributeTypes & (1 << bit) != 0 { continue }
                let start = raw.startIndex + attribute.value.lowerBound
                attributes.append(
                    ReceiptAttribute(
                        type: attribute.type,
                        version: attribute.version,
                        value: raw[start..<(raw.startIndex + attribute.value.upperBound)]
                    )
                )
            }
            return attributes
        }
    }
}
