/// A JSON key of Apple's `verifyReceipt` `receipt` object.
struct VerifyReceiptCodingKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        self.stringValue = string
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

extension KeyedEncodingContainer where Key == VerifyReceiptCodingKey {
    /// Encodes a date as Apple does: `key`, `key_ms` and `key_pst`; nothing when absent.
    mutating func encodeVerifyReceiptDate(_ date: Date?, _ key: String) throws {
        guard let date else { return }
        try self.encode(VerifyReceiptDateFormat.gmt(date), forKey: .init(key))
        try self.encode(VerifyReceiptDateFormat.milliseconds(date), forKey: .init(key + "_ms"))
        try self.encode(VerifyReceiptDateFormat.pacificTime(date), forKey: .init(key + "_pst"))
    }

    mutating func encodeIfPresent(_ value: (some Encodable)?, _ key: String) throws {
        try self.encodeIfPresent(value, forKey: .init(key))
    }
}

extension KeyedDecodingContainer where Key == VerifyReceiptCodingKey {
    func decodeVerifyReceiptDate(_ key: String) throws -> Date? {
        let milliseconds = try self.decodeIfPresent(String.self, forKey: .init(key + "_ms"))
        let text = try self.decodeIfPresent(String.self, forKey: .init(key))
        if milliseconds == nil, text == nil { return nil }
        guard let date = VerifyReceiptDateFormat.parse(milliseconds: milliseconds, text: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .init(key),
                in: self,
                debugDescription: "not a verifyReceipt date"
            )
        }
        return date
    }

    /// Reads an integer written either as a JSON number or as a string of digits (Apple uses both).
    func decodeFlexibleInteger(_ key: String) throws -> Int64? {
        let codingKey = VerifyReceiptCodingKey(key)
        guard self.contains(codingKey), try !self.decodeNil(forKey: codingKey) else { return nil }
        if let number = try? self.decode(Int64.self, forKey: codingKey) { return number }
        let text = try self.decode(String.self, forKey: codingKey)
        guard let number = Int64(text) else {
            throw DecodingError.dataCorruptedError(forKey: codingKey, in: self, debugDescription: "not an integer")
        }
        return number
    }

    func decodeFlexibleBool(_ key: String) throws -> Bool? {
        let codingKey = VerifyReceiptCodingKey(key)
        guard self.contains(codingKey), try !self.decodeNil(forKey: codingKey) else { return nil }
        if let flag = try? self.decode(Bool.self, forKey: codingKey) { return flag }
        switch try self.decode(String.self, forKey: codingKey) {
        case "true", "1": return true
        case "false", "0": return false
        default:
            throw DecodingError.dataCorruptedError(forKey: codingKey, in: self, debugDescription: "not a boolean")
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try self.decodeIfPresent(type, forKey: .init(key))
    }
}

import struct Foundation.Date
