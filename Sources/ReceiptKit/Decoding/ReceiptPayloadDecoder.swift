import struct Foundation.Date

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
/// - every attribute must have exactly the three fields above; trailing bytes anywhere are malformed;
/// - a documented attribute must hold its documented ASN.1 type (UTF8String / IA5String / INTEGER), and strings
///   must be valid UTF-8; an empty date string means "absent";
/// - a documented attribute that appears twice is malformed (Apple never repeats one, and a second bundle
///   identifier is exactly what a confused-deputy attack would add); undocumented attributes may repeat and are kept
///   raw, in order.
enum ReceiptPayloadDecoder {
    static func decode(
        _ bytes: ArraySlice<UInt8>,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> AppReceipt {
        var outer = PayloadTLVReader(bytes)
        let set = try outer.next(expecting: 0x31, "receipt payload SET")
        guard outer.isAtEnd else {
            throw ReceiptError(.malformedPayload, "trailing bytes after the receipt payload")
        }

        var receipt = AppReceipt()
        var seen = Set<Int64>()
        var attributeCount = 0
        var reader = PayloadTLVReader(bytes, range: set.content)
        while let attribute = try Self.nextAttribute(&reader, in: bytes) {
            attributeCount += 1
            guard attributeCount <= configuration.maximumAttributeCount else {
                throw ReceiptError(.tooManyAttributes, "more than \(configuration.maximumAttributeCount) attributes")
            }
            let type = attribute.type
            let value = attribute.value
            if type != 17, Self.appAttributeTypes.contains(type) {
                guard seen.insert(type).inserted else {
                    throw ReceiptError(.malformedPayload, "attribute \(type) appears more than once")
                }
            }
            switch type {
            case 0: receipt.environment = ReceiptEnvironment(rawValue: try Self.string(value, in: bytes, type))
            case 1: receipt.appItemIdentifier = try Self.integer(value, in: bytes, type)
            case 2:
                receipt.bundleIdentifier = try Self.string(value, in: bytes, type)
                receipt.bundleIdentifierData = Array(bytes[value])
            case 3: receipt.appVersion = try Self.string(value, in: bytes, type)
            case 4: receipt.opaqueValue = Array(bytes[value])
            case 5: receipt.sha1Hash = Array(bytes[value])
            case 10: receipt.ageRating = try Self.string(value, in: bytes, type)
            case 12: receipt.creationDate = try Self.date(value, in: bytes, type)
            case 15: receipt.downloadIdentifier = try Self.integer(value, in: bytes, type)
            case 16: receipt.versionExternalIdentifier = try Self.integer(value, in: bytes, type)
            case 17:
                guard receipt.inAppPurchases.count < configuration.maximumPurchaseCount else {
                    throw ReceiptError(
                        .tooManyPurchases,
                        "more than \(configuration.maximumPurchaseCount) in-app purchases"
                    )
                }
                receipt.inAppPurchases.append(
                    try Self.decodePurchase(bytes, range: value, configuration: configuration)
                )
            case 18: receipt.originalPurchaseDate = try Self.date(value, in: bytes, type)
            case 19: receipt.originalAppVersion = try Self.string(value, in: bytes, type)
            case 21: receipt.expirationDate = try Self.date(value, in: bytes, type)
            default:
                receipt.otherAttributes.append(
                    ReceiptAttribute(type: type, version: attribute.version, value: Array(bytes[value]))
                )
            }
        }
        return receipt
    }

    private static let appAttributeTypes: Set<Int64> = [0, 1, 2, 3, 4, 5, 10, 12, 15, 16, 18, 19, 21]
    private static let purchaseAttributeTypes: Set<Int64> = [
        1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1711, 1712, 1713, 1719, 1721,
    ]

    private static func decodePurchase(
        _ bytes: ArraySlice<UInt8>,
        range: Range<Int>,
        configuration: ReceiptDecodingConfiguration
    ) throws(ReceiptError) -> InAppPurchase {
        var outer = PayloadTLVReader(bytes, range: range)
        let set = try outer.next(expecting: 0x31, "in-app purchase SET")
        guard outer.isAtEnd else {
            throw ReceiptError(.malformedPayload, "trailing bytes after an in-app purchase")
        }
        var purchase = InAppPurchase()
        var seen = Set<Int64>()
        var attributeCount = 0
        var reader = PayloadTLVReader(bytes, range: set.content)
        while let attribute = try Self.nextAttribute(&reader, in: bytes) {
            attributeCount += 1
            guard attributeCount <= configuration.maximumAttributeCount else {
                throw ReceiptError(.tooManyAttributes, "more than \(configuration.maximumAttributeCount) attributes")
            }
            let type = attribute.type
            let value = attribute.value
            if Self.purchaseAttributeTypes.contains(type) {
                guard seen.insert(type).inserted else {
                    throw ReceiptError(.malformedPayload, "in-app attribute \(type) appears more than once")
                }
            }
            switch type {
            case 1701: purchase.quantity = try Self.integer(value, in: bytes, type)
            case 1702: purchase.productIdentifier = try Self.string(value, in: bytes, type)
            case 1703: purchase.transactionIdentifier = try Self.string(value, in: bytes, type)
            case 1704: purchase.purchaseDate = try Self.date(value, in: bytes, type)
            case 1705: purchase.originalTransactionIdentifier = try Self.string(value, in: bytes, type)
            case 1706: purchase.originalPurchaseDate = try Self.date(value, in: bytes, type)
            case 1707: purchase.productType = try Self.integer(value, in: bytes, type)
            case 1708: purchase.expiresDate = try Self.date(value, in: bytes, type)
            case 1711: purchase.webOrderLineItemIdentifier = try Self.integer(value, in: bytes, type)
            case 1712: purchase.cancellationDate = try Self.date(value, in: bytes, type)
            case 1713: purchase.isTrialPeriod = try Self.integer(value, in: bytes, type) != 0
            case 1719: purchase.isInIntroOfferPeriod = try Self.integer(value, in: bytes, type) != 0
            case 1721: purchase.promotionalOfferIdentifier = try Self.string(value, in: bytes, type)
            default:
                purchase.otherAttributes.append(
                    ReceiptAttribute(type: type, version: attribute.version, value: Array(bytes[value]))
                )
            }
        }
        return purchase
    }

    private struct RawAttribute {
        var type: Int64
        var version: Int64
        var value: Range<Int>
    }

    private static func nextAttribute(
        _ reader: inout PayloadTLVReader,
        in bytes: ArraySlice<UInt8>
    ) throws(ReceiptError) -> RawAttribute? {
        guard let sequence = try reader.next() else { return nil }
        guard sequence.tag == 0x30 else {
            throw ReceiptError(.malformedPayload, "receipt attribute is not a SEQUENCE")
        }
        var fields = PayloadTLVReader(bytes, range: sequence.content)
        let type = try Self.integerContent(bytes, fields.next(expecting: 0x02, "attribute type"))
        let version = try Self.integerContent(bytes, fields.next(expecting: 0x02, "attribute version"))
        let value = try fields.next(expecting: 0x04, "attribute value")
        guard fields.isAtEnd else {
            throw ReceiptError(.malformedPayload, "attribute \(type) has trailing fields")
        }
        return RawAttribute(type: type, version: version, value: value.content)
    }

    /// Reads a two's-complement INTEGER content of one to eight octets.
    private static func integerContent(
        _ bytes: ArraySlice<UInt8>,
        _ element: PayloadTLVReader.Element
    ) throws(ReceiptError) -> Int64 {
        let content = element.content
        guard !content.isEmpty, content.count <= 8 else {
            throw ReceiptError(.malformedPayload, "INTEGER of \(content.count) octets")
        }
        var value = Int64(Int8(bitPattern: bytes[content.lowerBound]))
        for index in (content.lowerBound + 1)..<content.upperBound {
            value = (value << 8) | Int64(bytes[index])
        }
        return value
    }

    private static func inner(
        _ value: Range<Int>,
        in bytes: ArraySlice<UInt8>,
        _ type: Int64
    ) throws(ReceiptError) -> PayloadTLVReader.Element {
        var reader = PayloadTLVReader(bytes, range: value)
        guard let element = try reader.next(), reader.isAtEnd else {
            throw ReceiptError(.malformedPayload, "attribute \(type) does not hold exactly one ASN.1 value")
        }
        return element
    }

    private static func integer(
        _ value: Range<Int>,
        in bytes: ArraySlice<UInt8>,
        _ type: Int64
    ) throws(ReceiptError) -> Int64 {
        let element = try Self.inner(value, in: bytes, type)
        guard element.tag == 0x02 else {
            throw ReceiptError(.malformedPayload, "attribute \(type) is not an INTEGER")
        }
        return try Self.integerContent(bytes, element)
    }

    private static func stringContent(
        _ value: Range<Int>,
        in bytes: ArraySlice<UInt8>,
        _ type: Int64
    ) throws(ReceiptError) -> Range<Int> {
        let element = try Self.inner(value, in: bytes, type)
        switch element.tag {
        case 0x0C, 0x16, 0x13:  // UTF8String, IA5String, PrintableString
            return element.content
        default:
            throw ReceiptError(.malformedPayload, "attribute \(type) is not a string")
        }
    }

    private static func string(
        _ value: Range<Int>,
        in bytes: ArraySlice<UInt8>,
        _ type: Int64
    ) throws(ReceiptError) -> String {
        let content = try Self.stringContent(value, in: bytes, type)
        guard let string = UTF8Validation.string(bytes[content]) else {
            throw ReceiptError(.malformedPayload, "attribute \(type) is not valid UTF-8")
        }
        return string
    }

    private static func date(
        _ value: Range<Int>,
        in bytes: ArraySlice<UInt8>,
        _ type: Int64
    ) throws(ReceiptError) -> Date? {
        let content = try Self.stringContent(value, in: bytes, type)
        if content.isEmpty { return nil }
        guard let milliseconds = ReceiptDateParser.epochMilliseconds(bytes[content]) else {
            throw ReceiptError(.malformedPayload, "attribute \(type) is not an RFC 3339 date")
        }
        return Date(epochMilliseconds: milliseconds)
    }
}
