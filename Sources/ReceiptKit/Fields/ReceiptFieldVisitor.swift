import struct Foundation.Date

/// Something that reads or writes the documented fields of a receipt record, one row of the record's table at a
/// time: `AppReceipt.visitFields(of:with:)` and `InAppPurchase.visitFields(of:with:)` call one method per row, in
/// the table's order (by verifyReceipt key).
///
/// A row names the ASN.1 attribute type, the verifyReceipt JSON key and the stored value, passed `inout` so that a
/// decoder writes it and a writer reads it directly; the method says how the value is encoded. The payload decoder,
/// the direct JSON writer, `Codable` decoding and ``ReceiptFieldEntries`` (which serves `Codable` encoding, the
/// mirror and the minter) are the conformances: a new field is one row in a table and its stored property.
///
/// The tables are `@inline(__always)` and every conformance is a concrete type, so each caller compiles to direct
/// property accesses: no key paths, closures or existentials per row. The methods do not throw — a visitor that
/// can fail keeps its first failure for its caller — because calls through a requirement with typed throws are
/// not devirtualized, and every row would become a witness-table call.
protocol ReceiptFieldVisitor {
    /// An INTEGER, written in JSON as a number or, `quoted`, as a string of digits (`"quantity":"1"`).
    mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool)
    /// An INTEGER that is 0 or not, written in JSON as `"true"` / `"false"`.
    mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?)
    /// An RFC 3339 IA5String, written in JSON as `key`, `key_ms` and `key_pst`; an empty string means absent.
    mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?)
    /// A UTF8String.
    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?)
    /// A UTF8String whose DER bytes are kept too (the bundle identifier's, which the device hash covers).
    mutating func string(
        _ type: Int64,
        _ key: StaticString,
        _ value: inout String?,
        der: inout [UInt8]?
    )
    /// A UTF8String of an in-app purchase, kept as a span of the record's bytes until read.
    mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText)
    /// OCTET STRING content kept as it is, written in JSON as base64.
    mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?)
    /// The in-app purchase records: an attribute that repeats, each a nested SET; a JSON array.
    mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase])
    /// A second JSON key for the integer of the row keyed `primary` (`adam_id` for `app_item_id`): written like
    /// it, read only when `primary` is absent.
    mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?)
    /// A JSON-only date whose value the writer supplies (`request_date`).
    mutating func requestDate(_ key: StaticString)
}
