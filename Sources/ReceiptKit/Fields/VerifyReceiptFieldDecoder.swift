import struct Foundation.Date
import _ReceiptKitShared

/// Decodes each row of a record's table from a keyed container: the `verifyReceipt` form the `Codable` encoding
/// writes, or Apple's own (numbers as JSON numbers or strings of digits). A row sets its value only when its key
/// is there, so the integer an alias read is kept when the primary key is absent. The first error ends decoding.
struct VerifyReceiptFieldDecoder: ReceiptFieldVisitor {
    private typealias Container = KeyedDecodingContainer<VerifyReceiptCodingKey>

    private let container: Container
    /// The first error a row met; the rows after it are skipped.
    private var failure: (any Error)?

    /// `empty` with every row the container holds set.
    static func decode<Record: ReceiptFieldTable>(_ empty: Record, from decoder: any Decoder) throws -> Record {
        var record = empty
        var visitor = Self(container: try decoder.container(keyedBy: VerifyReceiptCodingKey.self))
        Record.visitFields(of: &record, with: &visitor)
        if let failure = visitor.failure { throw failure }
        return record
    }

    private init(container: Container) {
        self.container = container
    }

    /// Sets `value` to what `read` finds under `key`, when it finds something.
    private mutating func read<T>(_ key: StaticString, _ value: inout T?, _ read: (Container, String) throws -> T?) {
        guard self.failure == nil else { return }
        do {
            if let found = try read(self.container, key.description) { value = found }
        } catch {
            self.failure = error
        }
    }

    mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) {
        self.read(key, &value) { try $0.decodeFlexibleInteger($1) }
    }

    mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) {
        self.read(key, &value) { try $0.decodeFlexibleBool($1) }
    }

    mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) {
        self.read(key, &value) { try $0.decodeVerifyReceiptDate($1) }
    }

    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) {
        self.read(key, &value) { try $0.decodeIfPresent(String.self, $1) }
    }

    /// `der` is not part of the JSON; it is set to the DER UTF8String of the value, which is what Apple's receipts
    /// carry.
    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) {
        self.string(type, key, &value)
        der = value.map { DEREncoding.utf8String($0) }
    }

    mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) {
        var string: String?
        self.string(type, key, &string)
        if let string { value = .text(string) }
    }

    mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) {
        self.read(key, &value) { container, key in
            guard let text = try container.decodeIfPresent(String.self, key) else { return nil }
            guard let bytes = Base64Decoder.bytes(of: text) else {
                let codingKey = VerifyReceiptCodingKey(key)
                throw DecodingError.dataCorruptedError(forKey: codingKey, in: container, debugDescription: "not base64")
            }
            return bytes
        }
    }

    mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) {
        var purchases: [InAppPurchase]?
        self.read(key, &purchases) { try $0.decodeIfPresent([InAppPurchase].self, $1) }
        value = purchases ?? value
    }

    /// Read only when `primary` is absent or null, as `primary ?? key`.
    mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {
        self.read(key, &value) { container, key in
            let primaryKey = VerifyReceiptCodingKey(primary.description)
            if container.contains(primaryKey), try !container.decodeNil(forKey: primaryKey) { return nil }
            return try container.decodeFlexibleInteger(key)
        }
    }

    mutating func requestDate(_ key: StaticString) {}
}
