/// The JSON type a documented payload field must have; checked when a payload is decoded, so every typed accessor
/// reads a value of its type or nothing.
enum PayloadField: Sendable {
    case string
    /// An integer (identifiers such as `appAppleId`, counts, enumerations Apple writes as numbers).
    case integer
    /// Milliseconds since 1970, integral or fractional.
    case timestamp
    case bool
    case stringArray
    case object

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (_, .null): return true
        case (.string, .string), (.bool, .bool), (.object, .object): return true
        case (.integer, .number(let number)): return number.int64 != nil
        case (.timestamp, .number(let number)): return AppStoreTimestamp(number) != nil
        case (.stringArray, .array(let elements)): return elements.allSatisfy { $0.stringValue != nil }
        default: return false
        }
    }

    /// Checks `fields` against `schema`; undocumented fields pass as they are.
    static func check(_ fields: [String: JSONValue], _ schema: [String: PayloadField], in payload: String) throws(JWSError) {
        for (name, value) in fields {
            if let field = schema[name], !field.accepts(value) {
                throw JWSError(.malformedPayload, "\(payload).\(name) is not \(field)")
            }
        }
    }
}

extension [String: JSONValue] {
    // `package`: ReceiptKitTesting's App Store Server API simulator and the tests read payloads with these too.
    package func string(_ name: String) -> String? { self[name]?.stringValue }

    package func integer(_ name: String) -> Int64? {
        if case .number(let number)? = self[name] { return number.int64 }
        return nil
    }

    func timestamp(_ name: String) -> AppStoreTimestamp? {
        if case .number(let number)? = self[name] { return AppStoreTimestamp(number) }
        return nil
    }

    func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = self[name] { return value }
        return nil
    }

    func strings(_ name: String) -> [String]? {
        if case .array(let elements)? = self[name] { return elements.compactMap(\.stringValue) }
        return nil
    }

    /// A documented list's value spelled as a string: the typed value, its raw text kept.
    package func enumeration<Listed: AppStoreEnumeration>(_ name: String) -> Listed? where Listed.RawValue == String {
        self.string(name).flatMap(Listed.init(rawValue:))
    }

    /// A documented list's value spelled as an integer: the typed value, its raw number kept.
    package func enumeration<Listed: AppStoreEnumeration>(_ name: String) -> Listed? where Listed.RawValue == Int64 {
        self.integer(name).flatMap(Listed.init(rawValue:))
    }

    func environment(_ name: String) -> AppStoreEnvironment? {
        self.string(name).map(AppStoreEnvironment.init(rawValue:))
    }
}
