package import struct Foundation.Date

/// The value of one documented attribute, as the minter in `ReceiptKitTesting` encodes it into a payload.
package enum ReceiptAttributeValue: Sendable {
    /// An INTEGER (flags are 0 or 1).
    case integer(Int64)
    /// A UTF8String.
    case string(String)
    /// An RFC 3339 IA5String.
    case date(Date)
    /// OCTET STRING content as it is (opaque value, SHA-1 hash, the bundle identifier's DER bytes).
    case octets([UInt8])
    /// A nested in-app purchase record.
    case purchase(InAppPurchase)

    /// The attributes the rows of `record` hold, by attribute type (repeated purchases in their order).
    static func attributes<Record: ReceiptFieldTable>(
        of record: Record,
        raw: ArraySlice<UInt8> = []
    ) -> [(type: Int64, value: ReceiptAttributeValue)] {
        var attributes: [(type: Int64, value: ReceiptAttributeValue)] = []
        for entry in ReceiptFieldEntries.of(record, raw: raw) {
            guard let type = entry.type else { continue }
            switch entry.value {
            case .integer(let value?, _): attributes.append((type, .integer(value)))
            case .flag(let value?): attributes.append((type, .integer(value ? 1 : 0)))
            case .date(let value?): attributes.append((type, .date(value)))
            case .string(let value?), .der(let value?, nil): attributes.append((type, .string(value)))
            case .der(_, let der?), .octets(let der?): attributes.append((type, .octets(der)))
            case .purchases(let purchases): attributes += purchases.map { (type, .purchase($0)) }
            default: break
            }
        }
        let ordered = attributes.enumerated().sorted { ($0.element.type, $0.offset) < ($1.element.type, $1.offset) }
        return ordered.map(\.element)
    }
}

extension AppReceipt {
    /// The documented attributes this receipt holds, by attribute type (purchases in order): its table, read for
    /// the minter. ``otherAttributes`` are not included.
    package func documentedAttributes() -> [(type: Int64, value: ReceiptAttributeValue)] {
        ReceiptAttributeValue.attributes(of: self)
    }
}

extension InAppPurchase {
    /// The documented attributes this record holds, by attribute type: its table, read for the minter.
    /// ``otherAttributes`` are not included.
    package func documentedAttributes() -> [(type: Int64, value: ReceiptAttributeValue)] {
        ReceiptAttributeValue.attributes(of: self, raw: self.raw)
    }
}
