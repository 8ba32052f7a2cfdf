extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(Double.self), let number = JSONNumber(value) {
            self = .number(number)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let number):
            if let integer = number.int64 {
                try container.encode(integer)
            } else {
                try container.encode(number.double ?? 0)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text, members in byte order of their names, numbers exactly as parsed.
    public var serialized: [UInt8] {
        var writer = JSONWriter()
        self.write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.literal("null")
        case .bool(let value): writer.bool(value)
        case .number(let number): writer.value(json: Array(number.text.utf8))
        case .string(let value): writer.string(value)
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(to: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for name in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                writer.key(name)
                members[name]?.write(to: &writer)
            }
            writer.endObject()
        }
    }
}
