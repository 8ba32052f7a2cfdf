/// Writes JSON straight into a byte buffer: the output of `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`,
/// byte for byte, when the caller emits keys in sorted (byte) order.
///
/// The escaping is Foundation's: `"` and `\` escaped, `\b \t \n \f \r` in their short forms, every other control
/// character below U+0020 as `\u00xx` (lowercase hex), everything else — `/`, DEL, U+2028, non-ASCII — as its UTF-8
/// bytes. Commas are placed by the writer: a key or an array element after a value gets one.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.key("a"); json.integer(1)
/// json.key("b"); json.string("x")
/// json.endObject()   // {"a":1,"b":"x"}
/// ```
package struct JSONWriter: Sendable {
    /// The UTF-8 JSON written so far.
    package var bytes: [UInt8]
    @usableFromInline
    var needsComma = false

    @inlinable
    package init(capacity: Int = 1024) {
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    @inlinable
    package mutating func beginObject() {
        self.separate()
        self.bytes.append(UInt8(ascii: "{"))
        self.needsComma = false
    }

    @inlinable
    package mutating func endObject() {
        self.bytes.append(UInt8(ascii: "}"))
        self.needsComma = true
    }

    @inlinable
    package mutating func beginArray() {
        self.separate()
        self.bytes.append(UInt8(ascii: "["))
        self.needsComma = false
    }

    @inlinable
    package mutating func endArray() {
        self.bytes.append(UInt8(ascii: "]"))
        self.needsComma = true
    }

    /// An object key (a literal that needs no escaping), with the comma before it when one is due.
    @inlinable
    package mutating func key(_ name: StaticString) {
        self.key(name, suffix: "")
    }

    /// An object key given as the literal `name` followed by `suffix` (for `date`, `date_ms`, `date_pst`).
    @inlinable
    package mutating func key(_ name: StaticString, suffix: StaticString) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        suffix.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        self.bytes.append(UInt8(ascii: "\""))
        self.bytes.append(UInt8(ascii: ":"))
        self.needsComma = false
    }

    /// An object key given at run time (escaped like a string value), with the comma before it when one is due.
    @inlinable
    package mutating func key(_ name: String) {
        self.string(name)
        self.bytes.append(UInt8(ascii: ":"))
        self.needsComma = false
    }

    /// A literal value written as it is (`true`, `null`, or a quoted literal string).
    @inlinable
    package mutating func literal(_ text: StaticString) {
        self.separate()
        text.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
        self.needsComma = true
    }

    @inlinable
    package mutating func bool(_ value: Bool) {
        self.literal(value ? "true" : "false")
    }

    @inlinable
    package mutating func integer(_ value: Int64) {
        self.separate()
        self.appendDecimal(value)
        self.needsComma = true
    }

    /// `value` as a JSON string of its decimal digits (`"42"`), as `verifyReceipt` writes identifiers.
    @inlinable
    package mutating func integerString(_ value: Int64) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        self.appendDecimal(value)
        self.bytes.append(UInt8(ascii: "\""))
        self.needsComma = true
    }

    @inlinable
    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { self.string(utf8: $0) }
    }

    /// A string given as its UTF-8 bytes, which must be valid UTF-8 (escaping never splits a multi-byte sequence,
    /// since every byte it looks at is ASCII).
    @inlinable
    package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
        self.appendEscaped(utf8)
        self.bytes.append(UInt8(ascii: "\""))
        self.needsComma = true
    }

    /// Starts a string value whose content the caller appends with ``appendRaw(_:)`` and friends, then
    /// ``endString()``. The content must not need escaping.
    @inlinable
    package mutating func beginString() {
        self.separate()
        self.bytes.append(UInt8(ascii: "\""))
    }

    @inlinable
    package mutating func endString() {
        self.bytes.append(UInt8(ascii: "\""))
        self.needsComma = true
    }

    /// Appends ASCII text that needs no escaping, inside a string begun with ``beginString()``.
    @inlinable
    package mutating func appendRaw(_ text: StaticString) {
        text.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, left-padded with `0` to `width` characters as `String(value)` padded on the
    /// left would be (a minus sign counts as a character and is not moved).
    @inlinable
    package mutating func appendPadded(_ value: Int, width: Int) {
        let count = Self.decimalCount(Int64(value))
        if count < width {
            self.bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - count))
        }
        self.appendDecimal(Int64(value))
    }

    /// Appends the decimal digits of `value`, with a leading `-` when negative.
    @inlinable
    package mutating func appendDecimal(_ value: Int64) {
        if value < 0 { self.bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            self.bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // Digits are produced last first into a small stack buffer, then appended in order in one copy.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = digits.count
            repeat {
                index &-= 1
                digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0 && index > 0
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// A complete JSON value written earlier by a `JSONWriter` (an object kept in a database, say), as an element
    /// or a value, with the comma before it when one is due.
    @inlinable
    package mutating func value(json: [UInt8]) {
        self.separate()
        self.bytes.append(contentsOf: json)
        self.needsComma = true
    }

    /// `bytes` in standard Base64 with padding, as a string value: `Data.base64EncodedString()`'s text, written in
    /// place (no `Data`, no `String`, no escaping pass: the Base64 alphabet needs none).
    @inlinable
    package mutating func base64String(_ bytes: [UInt8]) {
        self.beginString()
        let (groups, overflow) = bytes.count.quotientAndRemainder(dividingBy: 3)
        let start = self.bytes.count
        // The room is made once, then filled through a pointer (ReceiptLedger's Measurements give the cost of
        // appending byte by byte).
        self.bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (groups + (overflow == 0 ? 0 : 1)) * 4))
        let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        alphabet.withUTF8Buffer { symbols in
            bytes.withUnsafeBufferPointer { input in
                self.bytes.withUnsafeMutableBufferPointer { output in
                    var from = 0
                    var to = start
                    for _ in 0..<groups {
                        let group = UInt32(input[from]) << 16 | UInt32(input[from + 1]) << 8 | UInt32(input[from + 2])
                        output[to] = symbols[Int(group >> 18)]
                        output[to + 1] = symbols[Int(group >> 12 & 0x3F)]
                        output[to + 2] = symbols[Int(group >> 6 & 0x3F)]
                        output[to + 3] = symbols[Int(group & 0x3F)]
                        from += 3
                        to += 4
                    }
                    guard overflow > 0 else { return }
                    // The last one or two bytes: two or three symbols, the rest stays `=`.
                    let group = UInt32(input[from]) << 16 | (overflow == 2 ? UInt32(input[from + 1]) << 8 : 0)
                    output[to] = symbols[Int(group >> 18)]
                    output[to + 1] = symbols[Int(group >> 12 & 0x3F)]
                    if overflow == 2 { output[to + 2] = symbols[Int(group >> 6 & 0x3F)] }
                }
            }
        }
        self.endString()
    }

    /// Base64 text as a string value, as it is: being canonical, it is what ``base64String(_:)`` would write for its
    /// bytes, without the encoding.
    @inlinable
    package mutating func string(_ base64: CanonicalBase64) {
        self.beginString()
        var text = base64.text
        text.withUTF8 { self.bytes.append(contentsOf: $0) }
        self.endString()
    }

    /// Appends bytes the caller has already escaped (or that need no escaping).
    @inlinable
    package mutating func appendRaw(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.append(contentsOf: bytes)
    }

    @inlinable
    static func decimalCount(_ value: Int64) -> Int {
        var magnitude = value.magnitude
        var count = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }

    @inlinable
    mutating func separate() {
        if self.needsComma { self.bytes.append(UInt8(ascii: ",")) }
    }

    /// Copies runs that need no escaping in one piece and escapes the bytes between them.
    @usableFromInline
    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            self.appendEscape(byte)
            runStart = index + 1
        }
        self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    @usableFromInline
    mutating func appendEscape(_ byte: UInt8) {
        self.bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): self.bytes.append(byte)
        case 0x08: self.bytes.append(UInt8(ascii: "b"))
        case 0x09: self.bytes.append(UInt8(ascii: "t"))
        case 0x0A: self.bytes.append(UInt8(ascii: "n"))
        case 0x0C: self.bytes.append(UInt8(ascii: "f"))
        case 0x0D: self.bytes.append(UInt8(ascii: "r"))
        default:
            // \u00xx with lowercase hex digits; only control characters (below 0x20) get here.
            func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
            self.bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0x0F)])
        }
    }
}
