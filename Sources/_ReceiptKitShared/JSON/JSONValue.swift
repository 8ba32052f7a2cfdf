/// A JSON value as signed: what a payload holds besides its documented fields, and the payload itself.
///
/// Numbers keep their text (``JSONNumber``), so an identifier or a millisecond timestamp is never rounded.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The number, when this is one.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }
}
