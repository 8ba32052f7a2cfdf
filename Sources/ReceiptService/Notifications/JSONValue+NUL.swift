import AppStoreJWS

extension JSONValue {
    /// Whether any string in the value — member names included — holds U+0000.
    ///
    /// PostgreSQL's `text` cannot store it (SQLite can), so a notification carrying one would be recorded on one
    /// backend and fail on the other for ever, and Apple would retry a poison message: such notifications are
    /// refused on both, before any write. The value comes from the strict parser, whose nesting is bounded, so the
    /// recursion is too.
    var containsNUL: Bool {
        switch self {
        case .string(let text): return text.utf8.contains(0)
        case .array(let elements): return elements.contains { $0.containsNUL }
        case .object(let members): return members.contains { $0.key.utf8.contains(0) || $0.value.containsNUL }
        case .null, .bool, .number: return false
        }
    }
}
