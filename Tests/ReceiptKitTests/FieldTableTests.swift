import Foundation
@testable import ReceiptKit
import ReceiptKitTesting
import Testing

/// The tables of `AppReceipt` and `InAppPurchase` (`visitFields(of:with:)`) are what the decoder, `Codable`, the
/// direct JSON writer, the mirror and the minter read. These tests hold the tables to their rules and carry every
/// row — whatever rows there are, so a new one is covered without a new test — from the minter through the decoder
/// to both JSON forms.
@Suite struct FieldTableTests {
    static let receiptRows = ReceiptFieldEntries.of(AppReceipt())
    static let purchaseRows = ReceiptFieldEntries.of(InAppPurchase())

    @Test(arguments: [("AppReceipt", 0 as Int64), ("InAppPurchase", 1700)])
    func typeNumbersAreUniqueAndFitTheDecodersMask(record: String, base: Int64) {
        let rows = record == "AppReceipt" ? Self.receiptRows : Self.purchaseRows
        let types = rows.compactMap(\.type)
        #expect(Set(types).count == types.count, "a type number appears in two rows")
        for type in types {
            #expect((base..<base + 64).contains(type), "type \(type) is outside the decoder's 64-bit mask")
        }
        #expect(rows.filter(\.repeats).compactMap(\.type) == (record == "AppReceipt" ? [17] : []))
        let mask = record == "AppReceipt"
            ? AppReceipt.typeMask(of: AppReceipt(), base: base) : InAppPurchase.typeMask(of: InAppPurchase(), base: base)
        #expect(mask.nonzeroBitCount == rows.filter { $0.type != nil && !$0.repeats }.count)
    }

    /// The direct writer emits rows in table order, so the table's keys — a date's three included — must be in
    /// the byte order `JSONEncoder`'s `.sortedKeys` uses, each once.
    @Test(arguments: ["AppReceipt", "InAppPurchase"])
    func jsonKeysAreUniqueAndSortedByBytes(record: String) {
        let rows = record == "AppReceipt" ? Self.receiptRows : Self.purchaseRows
        let keys = rows.flatMap(\.keys)
        for (earlier, later) in zip(keys, keys.dropFirst()) {
            #expect(Array(earlier.utf8).lexicographicallyPrecedes(Array(later.utf8)), "\(earlier) before \(later)")
        }
        let labels = rows.map(\.label)
        #expect(Set(labels).count == labels.count)
    }

    /// Sets every row of a table to a value of its own, derived from its type number.
    struct Filler: ReceiptFieldVisitor {
        mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) {
            value = (quoted ? 2000 : 1000) + type
        }
        mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) {
            value = type % 2 == 0
        }
        mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) {
            value = Date(epochMilliseconds: 1_600_000_000_000 + type * 86_400_123)
        }
        mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) {
            value = type == 0 ? "ProductionSandbox" : "string \(type) é"
        }
        mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) {
            value = "com.example.\(type)"
            der = DEREncoding.utf8String("com.example.\(type)")
        }
        mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) {
            value = .text("text \(type) 😀")
        }
        mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) {
            value = (0..<20).map { UInt8(truncatingIfNeeded: type &+ $0) }
        }
        mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) {
            var purchase = InAppPurchase()
            var filler = Filler()
            InAppPurchase.visitFields(of: &purchase, with: &filler)
            value = [purchase, purchase]
        }
        mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {}
        mutating func requestDate(_ key: StaticString) {}
    }

    static var everyField: AppReceipt {
        var receipt = AppReceipt()
        var filler = Filler()
        AppReceipt.visitFields(of: &receipt, with: &filler)
        return receipt
    }

    @Test func everyRowRoundTripsFromTheMinterThroughTheDecoderToJSON() throws {
        let receipt = Self.everyField
        let payload = ReceiptMinter.payload(receipt)
        let decoded = try ReceiptPayloadDecoder.decode(payload[...], configuration: .default)
        #expect(decoded == receipt)
        #expect(decoded.otherAttributes.isEmpty)
        #expect(decoded.inAppPurchases.allSatisfy { $0.otherAttributes.isEmpty })
        // The minter writes documented attributes by type.
        let types = Self.receiptRows.compactMap(\.type).flatMap { $0 == 17 ? [17, 17] : [$0] }
        #expect(receipt.documentedAttributes().map(\.type) == types.sorted())

        // Every key of every row is in the JSON (request_date only when a service passes one), with a value.
        let json = decoded.verifyReceiptJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let receiptKeys = Set(Self.receiptRows.filter { $0.key.description != "request_date" }.flatMap(\.keys))
        #expect(Set(object.keys) == receiptKeys)
        let purchases = try #require(object["in_app"] as? [[String: Any]])
        #expect(purchases.count == 2)
        for purchase in purchases {
            #expect(Set(purchase.keys) == Set(Self.purchaseRows.flatMap(\.keys)))
        }

        // The Codable form: the same bytes with sorted keys, and it decodes back to the same record.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect([UInt8](try encoder.encode(decoded)) == json)
        #expect(try JSONDecoder().decode(AppReceipt.self, from: Data(json)) == decoded)

        // The mirror lists every labelled purchase row, by type, then the undocumented attributes.
        let labels = Mirror(reflecting: decoded.inAppPurchases[0]).children.compactMap(\.label)
        let byType = Self.purchaseRows.sorted { ($0.type ?? 0) < ($1.type ?? 0) }.map(\.label)
        #expect(labels == byType + ["otherAttributes"])
        #expect(labels.prefix(3) == ["quantity", "productIdentifier", "transactionIdentifier"])
    }

    @Test func aDocumentedTypeThatRepeatsIsMalformed() throws {
        for row in Self.receiptRows + Self.purchaseRows where !row.repeats {
            guard let type = row.type else { continue }
            var receipt = Self.everyField
            if type >= 1700 {
                let value = try #require(receipt.inAppPurchases[0].documentedAttributes().first { $0.type == type })
                receipt.inAppPurchases[0].otherAttributes = [ReceiptAttribute(type: type, value: Self.encoded(value.value))]
            } else {
                let value = try #require(receipt.documentedAttributes().first { $0.type == type })
                receipt.otherAttributes = [ReceiptAttribute(type: type, value: Self.encoded(value.value))]
            }
            let payload = ReceiptMinter.payload(receipt)
            #expect(throws: ReceiptError(.malformedPayload, ""), "type \(type)") {
                try ReceiptPayloadDecoder.decode(payload[...], configuration: .default)
            }
        }
    }

    /// A second copy of an attribute: the same DER the minter writes for it.
    static func encoded(_ value: ReceiptAttributeValue) -> [UInt8] {
        switch value {
        case .integer(let integer): DEREncoding.element(0x02, [UInt8(truncatingIfNeeded: integer)])
        case .string(let string): DEREncoding.utf8String(string)
        case .date: DEREncoding.element(0x16, Array("2020-01-01T00:00:00Z".utf8))
        case .octets(let octets): octets
        case .purchase: []
        }
    }
}
