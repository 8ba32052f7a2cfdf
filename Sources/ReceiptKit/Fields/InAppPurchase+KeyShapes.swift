import struct Foundation.Date

extension InAppPurchase {
    /// Each key the purchase table writes in verifyReceipt's JSON, with the shape of its value.
    package static var verifyReceiptKeyShapes: [String: VerifyReceiptValueShape] {
        var collector = KeyShapeCollector()
        var record = InAppPurchase()
        Self.visitFields(of: &record, with: &collector)
        return collector.shapes
    }
}

/// Reads a table's keys and value shapes, nothing else.
private struct KeyShapeCollector: ReceiptFieldVisitor {
    var shapes: [String: VerifyReceiptValueShape] = [:]

    private mutating func note(_ key: StaticString, _ shape: VerifyReceiptValueShape) {
        self.shapes[key.description] = shape
    }

    mutating func integer(_ type: Int64, _ key: StaticString, _ value: inout Int64?, quoted: Bool) {
        self.note(key, quoted ? .digits : .number)
    }
    mutating func flag(_ type: Int64, _ key: StaticString, _ value: inout Bool?) { self.note(key, .textFlag) }
    mutating func date(_ type: Int64, _ key: StaticString, _ value: inout Date?) { self.note(key, .date) }
    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?) { self.note(key, .string) }
    mutating func string(_ type: Int64, _ key: StaticString, _ value: inout String?, der: inout [UInt8]?) {
        self.note(key, .string)
    }
    mutating func text(_ type: Int64, _ key: StaticString, _ value: inout DeferredText) { self.note(key, .string) }
    mutating func octets(_ type: Int64, _ key: StaticString, _ value: inout [UInt8]?) { self.note(key, .base64) }
    mutating func purchases(_ type: Int64, _ key: StaticString, _ value: inout [InAppPurchase]) {}
    mutating func alias(_ key: StaticString, of primary: StaticString, _ value: inout Int64?) {
        self.shapes[key.description] = self.shapes[primary.description]
    }
    mutating func requestDate(_ key: StaticString) { self.note(key, .date) }
}
