import struct Foundation.Data

extension ReceiptFieldEntry {
    /// Encodes the rows of `record` into `encoder`: the record's `Codable` form, Apple's `verifyReceipt` keys and
    /// formats (integers of a purchase and its flags as strings, dates in three forms), absent values omitted.
    static func encode<Record: ReceiptFieldTable>(
        _ record: Record,
        raw: ArraySlice<UInt8> = [],
        to encoder: any Encoder
    ) throws {
        var container = encoder.container(keyedBy: VerifyReceiptCodingKey.self)
        for entry in ReceiptFieldEntries.of(record, raw: raw) {
            let key = entry.key.description
            switch entry.value {
            case .integer(let value, quoted: false), .alias(let value, _): try container.encodeIfPresent(value, key)
            case .integer(let value, quoted: true): try container.encodeIfPresent(value.map(String.init), key)
            case .flag(let value): try container.encodeIfPresent(value.map(String.init), key)
            case .date(let value): try container.encodeVerifyReceiptDate(value, key)
            case .string(let value), .der(let value, _): try container.encodeIfPresent(value, key)
            case .octets(let value): try container.encodeIfPresent(value.map { Data($0).base64EncodedString() }, key)
            case .purchases(let value): try container.encode(value, forKey: .init(key))
            case .requestDate: break
            }
        }
    }

    /// The value as the mirror shows it: what the property returns.
    var reflected: Any {
        switch self.value {
        case .integer(let value, _), .alias(let value, _): value as Any
        case .flag(let value): value as Any
        case .date(let value): value as Any
        case .string(let value), .der(let value, _): value as Any
        case .octets(let value): value as Any
        case .purchases(let value): value
        case .requestDate: Optional<Never>.none as Any
        }
    }
}
