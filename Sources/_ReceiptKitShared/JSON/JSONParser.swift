/// The package's strict RFC 8259 parser: for the JSON inside a JWS, verifyReceipt request bodies, App Store Server
/// API answers and the service's settings file.
///
/// Written here rather than taken from Foundation because signed JSON must mean one thing to every reader: a
/// duplicate member name (which Foundation resolves silently, and other stacks resolve the other way) is refused, as
/// are invalid UTF-8, lone surrogates in escapes, control characters in strings, leading zeros, and anything after
/// the value. Nesting is bounded, so hostile input cannot exhaust the stack; every loop advances through a bounded
/// buffer, so it cannot run away.
///
/// One parser for all of it (`package`), so a body, an answer, a settings file and a signed payload follow one rule
/// set.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private let maximumDepth: Int

    /// Why a text is not strict JSON.
    package struct Failure: Error {
        /// What was wrong, and at which byte.
        package let reason: String
        /// Whether an object named a member twice (the text is otherwise well-formed up to there).
        package let isDuplicateName: Bool
        /// The byte at which the text stopped being strict JSON.
        package let offset: Int

        init(reason: String, offset: Int, isDuplicateName: Bool = false) {
            self.reason = reason
            self.offset = offset
            self.isDuplicateName = isDuplicateName
        }

        /// The 1-based line and column (in bytes) of ``offset`` in `bytes`, for people reading a file.
        package func position(in bytes: [UInt8]) -> (line: Int, column: Int) {
            var (line, column) = (1, 1)
            for byte in bytes.prefix(max(0, self.offset)) {
                if byte == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
            }
            return (line, column)
        }
    }

    private init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The value `bytes` hold, with nothing but whitespace around it.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("trailing characters") }
        return value
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: "\(reason) at byte \(self.index)", offset: self.index)
    }

    private var current: UInt8? {
        self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = self.current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            self.index += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard self.current == byte else { throw self.failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        self.index += 1
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard let byte = self.current else { throw self.failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return try self.object(depth: depth + 1)
        case UInt8(ascii: "["): return try self.array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try self.string())
        case UInt8(ascii: "t"): try self.literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try self.literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try self.literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try self.number())
        default: throw self.failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let length = word.utf8CodeUnitCount
        guard self.bytes.count - self.index >= length else { throw self.failure("unexpected end") }
        let matches = word.withUTF8Buffer { expected in
            expected.elementsEqual(self.bytes[self.index..<(self.index + length)])
        }
        guard matches else { throw self.failure("unknown literal") }
        self.index += length
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= self.maximumDepth else { throw self.failure("nesting deeper than \(self.maximumDepth)") }
        self.index += 1
        var members: [String: JSONValue] = [:]
        self.skipWhitespace()
        if self.current == UInt8(ascii: "}") {
            self.index += 1
            return .object(members)
        }
        while true {
            self.skipWhitespace()
            guard self.current == UInt8(ascii: "\"") else { throw self.failure("expected a member name") }
            let name = try self.string()
            self.skipWhitespace()
            try self.expect(UInt8(ascii: ":"))
            self.skipWhitespace()
            let value = try self.value(depth: depth)
            guard members.updateValue(value, forKey: name) == nil else {
                throw Failure(
                    reason: "duplicate member name '\(name)' at byte \(self.index)", offset: self.index, isDuplicateName: true)
            }
            self.skipWhitespace()
            if self.current == UInt8(ascii: ",") {
                self.index += 1
                continue
            }
            try self.expect(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= self.maximumDepth else { throw self.failure("nesting deeper than \(self.maximumDepth)") }
        self.index += 1
        var elements: [JSONValue] = []
        self.skipWhitespace()
        if self.current == UInt8(ascii: "]") {
            self.index += 1
            return .array(elements)
        }
        while true {
            self.skipWhitespace()
            elements.append(try self.value(depth: depth))
            self.skipWhitespace()
            if self.current == UInt8(ascii: ",") {
                self.index += 1
                continue
            }
            try self.expect(UInt8(ascii: "]"))
            return .array(elements)
        }
    }

    private mutating func string() throws(Failure) -> String {
        self.index += 1
        let start = self.index
        // Fast path: no escapes — the string is the bytes up to the closing quote; when they are all ASCII (every
        // field Apple writes, and x5c's base64) there is nothing to validate.
        var isASCII = true
        while let byte = self.current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw self.failure("control character in a string") }
            if byte >= 0x80 { isASCII = false }
            self.index += 1
        }
        guard let stop = self.current else { throw self.failure("unterminated string") }
        if stop == UInt8(ascii: "\""), isASCII {
            let text = String(decoding: self.bytes[start..<self.index], as: UTF8.self)
            self.index += 1  // the closing quote
            return text
        }
        var utf8 = Array(self.bytes[start..<self.index])
        if stop == UInt8(ascii: "\\") {
            try self.escapedRemainder(into: &utf8)
        }
        self.index += 1  // the closing quote
        // The standard library's validator refuses what RFC 3629 refuses: overlong forms, surrogates, > U+10FFFF.
        guard let text = String(validating: utf8, as: UTF8.self) else { throw self.failure("invalid UTF-8 in a string") }
        return text
    }

    /// Reads from a backslash to the closing quote (not consumed), appending the UTF-8 of what it reads.
    private mutating func escapedRemainder(into utf8: inout [UInt8]) throws(Failure) {
        while let byte = self.current, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20 else { throw self.failure("control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                self.index += 1
                continue
            }
            self.index += 1
            guard let escape = self.current else { throw self.failure("unterminated escape") }
            self.index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: try self.unicodeEscape())
            default: throw self.failure("unknown escape")
            }
        }
        guard self.current != nil else { throw self.failure("unterminated string") }
    }

    /// The UTF-8 of a `\uXXXX` escape (after the `u`), with its low surrogate when it is a high one.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        let first = try self.hexQuad()
        var scalarValue = UInt32(first)
        if (0xD800...0xDBFF).contains(first) {
            guard self.bytes.count - self.index >= 6, self.bytes[self.index] == UInt8(ascii: "\\"),
                self.bytes[self.index + 1] == UInt8(ascii: "u")
            else { throw self.failure("high surrogate without a low one") }
            self.index += 2
            let second = try self.hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else { throw self.failure("high surrogate without a low one") }
            scalarValue = 0x10000 + (UInt32(first - 0xD800) << 10) + UInt32(second - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw self.failure("lone low surrogate") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hexQuad() throws(Failure) -> UInt16 {
        guard self.bytes.count - self.index >= 4 else { throw self.failure("short \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = self.bytes[self.index]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: throw self.failure("bad hex digit in \\u escape")
            }
            value = value << 4 | UInt16(nibble)
            self.index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(Failure) -> JSONNumber {
        let start = self.index
        if self.current == UInt8(ascii: "-") { self.index += 1 }
        guard let first = self.current, Self.isDigit(first) else { throw self.failure("bad number") }
        self.index += 1
        if first != UInt8(ascii: "0") { self.skipDigits() }
        if self.current == UInt8(ascii: ".") {
            self.index += 1
            guard let digit = self.current, Self.isDigit(digit) else { throw self.failure("bad fraction") }
            self.skipDigits()
        }
        if self.current == UInt8(ascii: "e") || self.current == UInt8(ascii: "E") {
            self.index += 1
            if self.current == UInt8(ascii: "+") || self.current == UInt8(ascii: "-") { self.index += 1 }
            guard let digit = self.current, Self.isDigit(digit) else { throw self.failure("bad exponent") }
            self.skipDigits()
        }
        if let next = self.current, Self.isDigit(next) { throw self.failure("leading zero") }
        return JSONNumber(validated: String(decoding: self.bytes[start..<self.index], as: UTF8.self))
    }

    private mutating func skipDigits() {
        while let byte = self.current, Self.isDigit(byte) { self.index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
