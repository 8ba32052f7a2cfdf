import struct Foundation.Data
import struct Foundation.Date

/// Decodes each row of a record's table from a keyed container: the `verifyReceipt` form the `Codable` encoding
/// writes, or Apple's own (numbers as JSON numbers or strings of digits). A row sets its value only when its key
/// is there, so the integer an alias read is kept when the primary key is absent.
struct VerifyReceiptFieldDecoder: ReceiptFieldVisitor {
    typealias Failure = any Error

    private let container: KeyedDecodingContainer<VerifyReceiptCodingKey>

    /// `empty` with every row the container holds set.
    static func decode<Record: ReceiptFieldTable>(_ empty: Record, from decoder: any Decoder) throws -> Record {
        var record = empty
        var visitor = Self(container: try decoder.container(keyedBy: VerifyReceiptCodingKey.self))
        try Record.visitFields(of: &record, with: &visitor)
        return record
    }

    private func decode<T: Decodable>(_ key: StaticString, into value: inout T?) throws {
        if let decoded = try self.container.decodeIfPresent(T.self, key.description) { value = decoded }
    }

    mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) throws {
        value = try self.container.decodeFlexibleInteger(key.description) ?? value
    }

    mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) throws {
        value = try self.container.decodeFlexibleBool(key.description) ?? value
    }

    mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) throws {
        value = try self.container.decodeVerifyReceiptDate(key.description) ?? value
    }

    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) throws {
        try self.decode(key, into: &value)
    }

    /// `der` is not part of the JSON; it is set to the DER UTF8String of the value, which is what Apple's receipts
    /// carry.
    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) throws {
        try self.decode(key, into: &value)
        der = value.map { DEREncoding.utf8String($0) }
    }

    mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) throws {
        var string: String?
        try self.decode(key, into: &string)
        if let string { value = .text(string) }
    }

    mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) throws {
        var text: String?
        try self.decode(key, into: &text)
        guard let text else { return }
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .init(key.description),
                in: self.container,
                debugDescription: "not base64"
            )
        }
        value = [UInt8](data)
    }

    mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) throws {
        var purchases: [InAppPurchase]?
        try self.decode(key, into: &purchases)
        value = purchases ?? value
    }

    /// Read only when `primary` is absent or null, as `primary ?? key`.
    mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) throws {
        let primaryKey = VerifyReceiptCodingKey(primary.description)
        if self.container.contains(primaryKey), try !self.container.decodeNil(forKey: primaryKey) { return }
        try self.integer(0, key, &value, quoted: false)
    }

    mutating func requestDate(_ key: StaticString) {}
}
