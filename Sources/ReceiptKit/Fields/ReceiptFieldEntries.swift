import struct Foundation.Date

/// Lists the rows of a record's table with their values, in table order.
struct ReceiptFieldEntries: ReceiptFieldVisitor {
    private(set) var entries: [ReceiptFieldEntry] = []
    /// The record's decoded bytes, where its ``DeferredText`` spans point (empty for a receipt).
    private let raw: ArraySlice<UInt8>

    /// The entries of `record`, whose ``DeferredText`` values point into `raw`.
    static func of<Record: ReceiptFieldTable>(_ record: Record, raw: ArraySlice<UInt8> = []) -> [ReceiptFieldEntry] {
        var record = record
        var visitor = Self(raw: raw)
        Record.visitFields(of: &record, with: &visitor)
        return visitor.entries
    }

    private init(raw: ArraySlice<UInt8>) {
        self.raw = raw
    }

    private mutating func add(_ type: Int64?, _ key: StaticString, _ value: ReceiptFieldEntry.Value) {
        self.entries.append(ReceiptFieldEntry(type: type, key: key, value: value))
    }

    mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) {
        self.add(type, key, .integer(value, quoted: quoted))
    }

    mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) {
        self.add(type, key, .flag(value))
    }

    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) {
        self.add(type, key, .der(value, der))
    }

    mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) {
        self.add(type, key, .date(value))
    }

    mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) {
        self.add(type, key, .string(value.resolve(in: self.raw)))
    }

    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) {
        self.add(type, key, .string(value))
    }

    mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {
        self.add(nil, key, .alias(value, primary: primary))
    }

    mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) {
        self.add(type, key, .purchases(value))
    }

    mutating func requestDate(_ key: StaticString) {
        self.add(nil, key, .requestDate)
    }

    mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) {
        self.add(type, key, .octets(value))
    }
}
