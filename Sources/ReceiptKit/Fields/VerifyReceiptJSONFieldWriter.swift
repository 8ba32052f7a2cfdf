import struct Foundation.Data
import struct Foundation.Date
import _ReceiptKitShared

/// Writes each row of a record's table as members of a verifyReceipt JSON object, in the table's (byte-sorted key)
/// order: what `JSONEncoder` with `.sortedKeys` makes of the `Codable` form.
struct VerifyReceiptJSONFieldWriter: ReceiptFieldVisitor {
    private var json = JSONWriter(capacity: 0)
    /// The record's decoded bytes, where its ``DeferredText`` spans point (empty for a receipt).
    private let raw: ArraySlice<UInt8>
    private let requestDate: Date?

    /// Writes `record` as one JSON object into `json` (whose bytes are moved in and out, not copied).
    @inline(__always)
    static func write<Record: ReceiptFieldTable>(
        _ record: Record,
        raw: ArraySlice<UInt8> = [],
        requestDate: Date? = nil,
        to json: inout JSONWriter
    ) {
        var record = record
        var writer = Self(raw: raw, requestDate: requestDate)
        swap(&writer.json, &json)
        writer.json.beginObject()
        Record.visitFields(of: &record, with: &writer)
        writer.json.endObject()
        swap(&writer.json, &json)
    }

    private init(raw: ArraySlice<UInt8>, requestDate: Date?) {
        self.raw = raw
        self.requestDate = requestDate
    }

    mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) {
        guard let value else { return }
        self.json.key(key)
        if quoted { self.json.integerString(value) } else { self.json.integer(value) }
    }

    mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) {
        guard let value else { return }
        self.json.key(key)
        self.json.literal(value ? "\"true\"" : "\"false\"")
    }

    mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) {
        VerifyReceiptDateFormat.write(value, key: key, to: &self.json)
    }

    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) {
        guard let value else { return }
        self.json.key(key)
        self.json.string(value)
    }

    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) {
        self.string(type, key, &value)
    }

    /// Strings still inside the record's bytes are copied from there (validated as UTF-8 when decoded), never
    /// materialised as `String`.
    mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) {
        if case .text(let text) = value {
            self.json.key(key)
            self.json.string(text)
        } else if let bytes = value.span(in: self.raw) {
            self.json.key(key)
            bytes.withUnsafeBufferPointer { self.json.string(utf8: $0) }
        }
    }

    mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) {
        guard let value else { return }
        self.json.key(key)
        self.json.string(Data(value).base64EncodedString())
    }

    mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) {
        self.json.key(key)
        self.json.beginArray()
        for purchase in value {
            purchase.write(to: &self.json)
        }
        self.json.endArray()
    }

    mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {
        self.integer(0, key, &value, quoted: false)
    }

    mutating func requestDate(_ key: StaticString) {
        VerifyReceiptDateFormat.write(self.requestDate, key: key, to: &self.json)
    }
}
