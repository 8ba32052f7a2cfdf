import AppStoreJWS
import _ReceiptKitShared

/// A setting's value as a source gives it: a JSON value from the settings file, or text from an environment
/// variable or a flag. Text is read as the setting's kind reads it: a number, `true` or `false`, a string as it is,
/// and a list, a map or the App Store Server API apps as JSON text (the settings file's form).
enum SettingInput: Sendable {
    case json(JSONValue)
    case text(String)

    /// The JSON value: the file's as it is; text parsed strictly (duplicate names refused), for structured kinds.
    func structured() throws(SettingProblem) -> JSONValue {
        switch self {
        case .json(let value):
            return value
        case .text(let text):
            do {
                return try JSONParser.parse(Array(text.utf8), maximumDepth: 8)
            } catch {
                throw SettingProblem("is not JSON (\(error.reason))")
            }
        }
    }

    /// A number: the file's JSON number, or text that is one.
    func number() throws(SettingProblem) -> Double {
        switch self {
        case .json(.number(let number)):
            if let value = number.double, value.isFinite { return value }
        case .text(let text):
            if let value = Double(text), value.isFinite { return value }
        default:
            break
        }
        throw SettingProblem("must be a number")
    }

    /// A whole number.
    func integer() throws(SettingProblem) -> Int {
        switch self {
        case .json(.number(let number)):
            if let value = number.int64, let integer = Int(exactly: value) { return integer }
        case .text(let text):
            if let value = Int(text) { return value }
        default:
            break
        }
        throw SettingProblem("must be a whole number")
    }

    /// `true` or `false`.
    func flag() throws(SettingProblem) -> Bool {
        switch self {
        case .json(.bool(let value)): return value
        case .text("true"): return true
        case .text("false"): return false
        default: throw SettingProblem("must be true or false")
        }
    }

    /// A string: the file's JSON string, or the text.
    func string() throws(SettingProblem) -> String {
        switch self {
        case .json(.string(let value)): return value
        case .text(let text): return text
        default: throw SettingProblem("must be a string")
        }
    }

    /// A list of strings (JSON).
    func strings() throws(SettingProblem) -> [String] {
        guard case .array(let items) = try self.structured() else { throw SettingProblem("must be a list of strings") }
        var strings: [String] = []
        for item in items {
            guard case .string(let value) = item else { throw SettingProblem("must be a list of strings") }
            strings.append(value)
        }
        return strings
    }

    /// An object of strings (JSON).
    func stringMap() throws(SettingProblem) -> [String: String] {
        guard case .object(let members) = try self.structured() else {
            throw SettingProblem("must be an object of strings")
        }
        var map: [String: String] = [:]
        for (key, member) in members {
            guard case .string(let value) = member else { throw SettingProblem("must be an object of strings") }
            map[key] = value
        }
        return map
    }
}
