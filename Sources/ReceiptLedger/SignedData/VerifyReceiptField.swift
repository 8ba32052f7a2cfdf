import struct Foundation.Date
import ReceiptKit
import _ReceiptKitShared

/// One row of a table that writes a verifyReceipt object from App Store signed data: the key, where its value comes
/// from and Apple's format for it. A table lists its rows in key byte order, the order the object is written in,
/// and a key is one row — so the mapping from JWS fields to verifyReceipt keys is written once
/// (`JWSTransactionPayload.latestReceiptInfoFields`, `JWSRenewalInfoPayload.pendingRenewalInfoFields`).
enum VerifyReceiptField<Source>: Sendable {
    /// A string as it is (`"product_id":"com.example.pro"`).
    case string(StaticString, @Sendable (Source) -> String?)
    /// An integer as a string of digits (`"quantity":"1"`).
    case digits(StaticString, @Sendable (Source) -> Int64?)
    /// A flag as `"1"` or `"0"` (`is_in_billing_retry_period`).
    case digitFlag(StaticString, @Sendable (Source) -> Bool?)
    /// A flag as `"true"` or `"false"` (`is_trial_period`).
    case textFlag(StaticString, @Sendable (Source) -> Bool?)
    /// A date as `key` (GMT), `key_ms` and `key_pst` (Pacific time).
    case date(StaticString, @Sendable (Source) -> Date?)

    /// The verifyReceipt key (the first of three for a date).
    var key: StaticString {
        switch self {
        case .string(let key, _), .digits(let key, _), .digitFlag(let key, _), .textFlag(let key, _), .date(let key, _):
            key
        }
    }

    /// How the value is written.
    var shape: VerifyReceiptValueShape {
        switch self {
        case .string: .string
        case .digits: .digits
        case .digitFlag: .digitFlag
        case .textFlag: .textFlag
        case .date: .date
        }
    }

    /// Writes the key and its value, or nothing when the source has no value for it.
    func write(_ source: Source, to json: inout JSONWriter) {
        switch self {
        case .string(let key, let value):
            guard let value = value(source) else { return }
            json.key(key)
            json.string(value)
        case .digits(let key, let value):
            guard let value = value(source) else { return }
            json.key(key)
            json.integerString(value)
        case .digitFlag(let key, let value):
            guard let value = value(source) else { return }
            json.key(key)
            json.literal(value ? "\"1\"" : "\"0\"")
        case .textFlag(let key, let value):
            guard let value = value(source) else { return }
            json.key(key)
            json.literal(value ? "\"true\"" : "\"false\"")
        case .date(let key, let value):
            VerifyReceiptDateFormat.write(value(source), key: key, to: &json)
        }
    }

    /// The object `fields` write for `source` (UTF-8 JSON, keys in the table's order, absent values omitted).
    static func object(_ source: Source, _ fields: [Self]) -> [UInt8] {
        var json = JSONWriter(capacity: 768)
        json.beginObject()
        for field in fields {
            field.write(source, to: &json)
        }
        json.endObject()
        return json.bytes
    }
}
