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
/// - a documented attribute must hold its documented ASN.1 type (UTF8String / IA5String / INTEGER), and strings
///   must be valid UTF-8; an empty date string means "absent";
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
    private struct Input {
        let buffer: UnsafeRawBufferPointer
        let source: ArraySlice<UInt8>

        func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
            self.source[(self.source.startIndex + range.lowerBound)..<(self.source.startIndex + range.upperBound)]
        }
    }

    private struct RawAttribute {
        var type: Int64
        var version: Int64
        var value: Range<Int>
    }

    /// Bit `t` is set for each documented app attribute type `t` (which must not repeat): 0–5, 10, 12, 15, 16,
    /// 18, 19 and 21.
    private static var appAttributeTypes: UInt64 { 0x2D943F }
    /// Bit `t - 1700` is set for each documented purchase attribute type `t`: 1701–1708, 1711–1713, 1719, 1721.
    private static var purchaseAttributeTypes: UInt64 { 0x2839FE }

    private static func decode(
        _ input: Input,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> AppReceipt {
        let set = try Self.payloadSet(input.buffer, 0..<input.buffer.count, "receipt payload")
        var receipt = AppReceipt()
        receipt.inAppPurchases.reserveCapacity(
            min(Self.countPurchases(input.buffer, set), configuration.maximumPurchaseCount)
        )
        let b = input.buffer
        try Self.walk(b, set, documented: Self.appAttributeTypes, base: 0, configuration) { (attribute) throws(ReceiptError) in
            let type = attribute.type
            let value = attribute.value
            switch type {
            case 0: receipt.environment = ReceiptEnvironment(rawValue: try Self.string(b, value, type))
            case 1: receipt.appItemIdentifier = try Self.integer(b, value, type)
            case 2:
                receipt.bundleIdentifier = try Self.string(b, value, type)
                receipt.bundleIdentifierData = Array(input.slice(value))
            case 3: receipt.appVersion = try Self.string(b, value, type)
            case 4: receipt.opaqueValue = Array(input.slice(value))
            case 5: receipt.sha1Hash = Array(input.slice(value))
            case 10: receipt.ageRating = try Self.string(b, value, type)
            case 12: receipt.creationDate = try Self.date(b, value, type)
            case 15: receipt.downloadIdentifier = try Self.integer(b, value, type)
            case 16: receipt.versionExternalIdentifier = try Self.integer(b, value, type)
            case 17:
                guard receipt.inAppPurchases.count < configuration.maximumPurchaseCount else {
                    throw ReceiptError(
                        .tooManyPurchases,
                        "more than \(configuration.maximumPurchaseCount) in-app purchases"
                    )
                }
                // Decode in place: an InAppPurchase is a large value, not worth copying into the array.
                receipt.inAppPurchases.append(InAppPurchase(raw: []))
                try Self.decodePurchase(
                    input,
                    value,
                    into: &receipt.inAppPurchases[receipt.inAppPurchases.count - 1],
                    configuration: configuration
                )
            case 18: receipt.originalPurchaseDate = try Self.date(b, value, type)
            case 19: receipt.originalAppVersion = try Self.string(b, value, type)
            case 21: receipt.expirationDate = try Self.date(b, value, type)
            default:
                receipt.otherAttributes.append(
                    ReceiptAttribute(type: type, version: attribute.version, value: input.slice(value))
                )
            }
        }
        return receipt
    }

    /// Reads every attribute of the SET content `set`, enforcing the attribute cap and that documented types —
    /// bit `type - base` of `documented` — appear at most once, and hands each to `body`.
    @inline(__always)
    private static func walk(
        _ b: UnsafeRawBufferPointer,
        _ set: Range<Int>,
        documented: UInt64,
        base: Int64,
        _ configuration: ReceiptDecodingConfiguration,
        _ body: (RawAttribute) throws(ReceiptError) -> Void
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
            if bit >= 0, bit < 64, documented & (1 << bit) != 0 {
                guard seen & (1 << bit) == 0 else {
                    throw ReceiptError(.malformedPayload, "attribute \(attribute.type) appears more than once")
                }
                seen |= 1 << bit
            }
            try body(attribute)
        }
    }

    /// Counts the attributes of type 17 with a header-only pass, so the purchase array is allocated once. Stops
    /// quietly at the first malformed attribute: the full walk that follows reports it.
    private static func countPurchases(_ b: UnsafeRawBufferPointer, _ set: Range<Int>) -> Int {
        var count = 0
        var position = set.lowerBound
        while position < set.upperBound {
            guard let attribute = try? Self.readAttribute(b, &position, set.upperBound) else { break }
            if attribute.type == 17 { count += 1 }
        }
        return count
    }

    private static func decodePurchase(
        _ input: Input,
        _ range: Range<Int>,
        into purchase: inout InAppPurchase,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) {
        let b = input.buffer
        let set = try Self.payloadSet(b, range, "in-app purchase")
        purchase.raw = input.slice(set)
        try Self.walk(b, set, documented: Self.purchaseAttributeTypes, base: 1700, configuration) { (attribute) throws(ReceiptError) in
            let type = attribute.type
            let value = attribute.value
            switch type {
            case 1701: purchase.quantity = try Self.integer(b, value, type)
            case 1702: purchase.storedProductIdentifier = try Self.deferredText(b, value, type, relativeTo: set)
            case 1703: purchase.storedTransactionIdentifier = try Self.deferredText(b, value, type, relativeTo: set)
            case 1704: purchase.purchaseDate = try Self.date(b, value, type)
            case 1705:
                purchase.storedOriginalTransactionIdentifier = try Self.deferredText(b, value, type, relativeTo: set)
            case 1706: purchase.originalPurchaseDate = try Self.date(b, value, type)
            case 1707: purchase.productType = try Self.integer(b, value, type)
            case 1708: purchase.expiresDate = try Self.date(b, value, type)
            case 1711: purchase.webOrderLineItemIdentifier = try Self.integer(b, value, type)
            case 1712: purchase.cancellationDate = try Self.date(b, value, type)
            case 1713: purchase.isTrialPeriod = try Self.integer(b, value, type) != 0
            case 1719: purchase.isInIntroOfferPeriod = try Self.integer(b, value, type) != 0
            case 1721:
                purchase.storedPromotionalOfferIdentifier = try Self.deferredText(b, value, type, relativeTo: set)
            default:
                break  // kept in `raw`; InAppPurchase.otherAttributes lists them on demand
            }
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
    private static func header(
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
    private static func smallInteger(
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

    /// The single ASN.1 value that must fill an attribute's OCTET STRING.
    @inline(__always)
    private static func inner(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64
    ) throws(ReceiptError) -> TLVHeader {
        let header = try Self.header(b, value.lowerBound, value.upperBound)
        guard let length = header.length, header.contentStart + length == value.upperBound else {
            throw ReceiptError(.malformedPayload, "attribute \(type) does not hold exactly one ASN.1 value")
        }
        return header
    }

    @inline(__always)
    private static func integer(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64
    ) throws(ReceiptError) -> Int64 {
        var cursor = value.lowerBound
        let integer = try Self.smallInteger(b, &cursor, value.upperBound, "INTEGER value")
        guard cursor == value.upperBound else {
            throw ReceiptError(.malformedPayload, "attribute \(type) does not hold exactly one INTEGER")
        }
        return integer
    }

    @inline(__always)
    private static func stringContent(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64
    ) throws(ReceiptError) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: b[try Self.stringRange(b, value, type)])
    }

    @inline(__always)
    private static func stringRange(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64
    ) throws(ReceiptError) -> Range<Int> {
        let header = try Self.inner(b, value, type)
        switch header.tag {
        case 0x0C, 0x16, 0x13:  // UTF8String, IA5String, PrintableString
            return header.contentStart..<value.upperBound
        default:
            throw ReceiptError(.malformedPayload, "attribute \(type) is not a string")
        }
    }

    /// Validates a string attribute and records where it is, relative to the start of `record`.
    @inline(__always)
    private static func deferredText(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64,
        relativeTo record: Range<Int>
    ) throws(ReceiptError) -> DeferredText {
        let range = try Self.stringRange(b, value, type)
        let bytes = UnsafeRawBufferPointer(rebasing: b[range])
        guard UTF8Validation.isValid(bytes) else {
            throw ReceiptError(.malformedPayload, "attribute \(type) is not valid UTF-8")
        }
        guard let offset = UInt32(exactly: range.lowerBound - record.lowerBound), let count = UInt32(exactly: range.count)
        else {
            return .text(String(decoding: bytes, as: UTF8.self))
        }
        return .span(offset: offset, count: count)
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

    @inline(__always)
    private static func string(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64
    ) throws(ReceiptError) -> String {
        guard let string = UTF8Validation.string(try Self.stringContent(b, value, type)) else {
            throw ReceiptError(.malformedPayload, "attribute \(type) is not valid UTF-8")
        }
        return string
    }

    @inline(__always)
    private static func date(
        _ b: UnsafeRawBufferPointer,
        _ value: Range<Int>,
        _ type: Int64
    ) throws(ReceiptError) -> Date? {
        let content = try Self.stringContent(b, value, type)
        if content.isEmpty { return nil }
        guard let milliseconds = ReceiptDateParser.epochMilliseconds(content) else {
            throw ReceiptError(.malformedPayload, "attribute \(type) is not an RFC 3339 date")
        }
        return Date(epochMilliseconds: milliseconds)
    }
}
