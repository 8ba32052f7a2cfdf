import Foundation
import ReceiptKit

/// Encodes an ``AppReceipt`` into the receipt payload, `SET OF ReceiptAttribute`: the documented attributes the
/// records' tables list, by attribute type (the order Apple uses), followed by ``AppReceipt/otherAttributes`` as
/// given.
enum ReceiptPayloadEncoder {
    /// Collects `ReceiptAttribute` SEQUENCEs and closes them into a SET.
    private struct AttributeSet {
        var content: [UInt8] = []

        mutating func add(_ type: Int64, _ value: [UInt8]?, version: Int64 = 1) {
            guard let value else { return }
            self.content += DERWriter.definite(
                0x30,
                DERWriter.integer(type) + DERWriter.integer(version) + DERWriter.definite(0x04, value)
            )
        }

        mutating func add(_ attributes: [ReceiptAttribute]) {
            for attribute in attributes {
                self.add(attribute.type, Array(attribute.value), version: attribute.version)
            }
        }

        var encoded: [UInt8] { DERWriter.definite(0x31, self.content) }
    }

    static func encode(_ receipt: AppReceipt) -> [UInt8] {
        Self.encode(receipt.documentedAttributes(), then: receipt.otherAttributes)
    }

    static func encode(_ purchase: InAppPurchase) -> [UInt8] {
        Self.encode(purchase.documentedAttributes(), then: purchase.otherAttributes)
    }

    /// The documented attributes (from the record's table, by type), then the undocumented ones as given.
    private static func encode(
        _ documented: [(type: Int64, value: ReceiptAttributeValue)],
        then others: [ReceiptAttribute]
    ) -> [UInt8] {
        var set = AttributeSet()
        for (type, value) in documented {
            switch value {
            case .integer(let integer): set.add(type, DERWriter.integer(integer))
            case .string(let string): set.add(type, Self.utf8(string))
            case .date(let date): set.add(type, Self.date(date))
            case .octets(let octets): set.add(type, octets)
            case .purchase(let purchase): set.add(type, Self.encode(purchase))
            }
        }
        set.add(others)
        return set.encoded
    }

    static func utf8(_ string: String) -> [UInt8] {
        DEREncoding.utf8String(string)
    }

    /// An IA5String RFC 3339 timestamp in UTC, with milliseconds only when they are not zero. A date outside
    /// years 0000–9999 is written as it would print, which decoding rejects — as a receipt carrying it should be.
    static func date(_ date: Date) -> [UInt8] {
        let text = RFC3339.string(date) ?? "out-of-range:\(date.epochMilliseconds)"
        return DERWriter.definite(0x16, Array(text.utf8))
    }
}
