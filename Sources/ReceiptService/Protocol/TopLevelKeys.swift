import struct Foundation.Data
import class Foundation.JSONDecoder

/// Finds the keys of a JSON document's top-level object, to refuse documents that repeat one.
///
/// Runs only on documents Foundation has already parsed, so it needs no error handling for broken syntax: it tracks
/// strings (with their escapes) and nesting depth, collects each string that stands in key position at depth 1,
/// and compares the keys after unescaping them with Foundation (so `"receipt\u002ddata"` and `"receipt-data"` are
/// the same key, as they are to every parser).
enum TopLevelKeys {
    static func areUnique(in body: [UInt8]) -> Bool {
        var keys = Set<String>()
        var depth = 0
        var index = 0
        var expectingKey = false
        let count = body.count
        while index < count {
            let byte = body[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < count, body[index] != UInt8(ascii: "\"") {
                    index += body[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1, expectingKey {
                    let literal = body[start...min(index, count - 1)]
                    guard let key = Self.key(literal), keys.insert(key).inserted else { return false }
                    expectingKey = false
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            default:
                break
            }
            index += 1
        }
        return true
    }

    /// A key literal's text: its bytes when it has no escapes (already valid UTF-8, Foundation checked), else
    /// Foundation's reading of it.
    private static func key(_ literal: ArraySlice<UInt8>) -> String? {
        guard literal.count >= 2 else { return nil }
        let inner = literal.dropFirst().dropLast()
        if !inner.contains(UInt8(ascii: "\\")) {
            return String(decoding: inner, as: UTF8.self)
        }
        return try? JSONDecoder().decode(String.self, from: Data(literal))
    }
}
