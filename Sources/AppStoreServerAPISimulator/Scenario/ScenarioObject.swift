import _ReceiptKitShared

/// A JSON object of a scenario being read: typed members by name, each refusal naming its place
/// (`events[3].product`), and any member left unread refused, so that a misspelt one is not ignored.
struct ScenarioObject {
    let path: String
    let members: [String: JSONValue]

    init(_ value: JSONValue, at path: String) throws(ScenarioError) {
        guard let members = value.objectValue else { throw ScenarioError(.invalidMember, "\(path) is not an object") }
        self.path = path
        self.members = members
    }

    func place(_ name: String) -> String { self.path.isEmpty ? name : "\(self.path).\(name)" }

    /// Refuses any member not in `known`.
    func only(_ known: Set<String>) throws(ScenarioError) {
        if let unknown = self.members.keys.sorted().first(where: { !known.contains($0) }) {
            throw ScenarioError(
                .invalidMember, "\(self.place(unknown)) is not a member of this object (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ name: String, maximumLength: Int = 256) throws(ScenarioError) -> String? {
        guard let value = self.members[name], value != .null else { return nil }
        guard let text = value.stringValue else { throw ScenarioError(.invalidMember, "\(self.place(name)) is not a string") }
        guard !text.isEmpty, text.utf8.count <= maximumLength else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) must be 1 to \(maximumLength) bytes")
        }
        guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) holds a control character")
        }
        return text
    }

    func requiredString(_ name: String, maximumLength: Int = 256) throws(ScenarioError) -> String {
        guard let text = try self.string(name, maximumLength: maximumLength) else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) is missing")
        }
        return text
    }

    func integer(_ name: String, in range: ClosedRange<Int64>) throws(ScenarioError) -> Int64? {
        guard let value = self.members[name], value != .null else { return nil }
        guard let number = value.numberValue?.int64 else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) is not a whole number")
        }
        guard range.contains(number) else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) must be \(range.lowerBound) to \(range.upperBound), not \(number)")
        }
        return number
    }

    func period(_ name: String) throws(ScenarioError) -> ScenarioPeriod? {
        guard let text = try self.string(name, maximumLength: 64) else { return nil }
        guard let period = ScenarioPeriod(text) else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) is not an ISO 8601 duration such as P1M, P7D or PT12H: \(text)")
        }
        return period
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type) throws(ScenarioError) -> T?
    where T.RawValue == String {
        guard let text = try self.string(name, maximumLength: 64) else { return nil }
        guard let value = T(rawValue: text) else {
            let known = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioError(.invalidMember, "\(self.place(name)) is one of \(known), not \(text)")
        }
        return value
    }

    func array(_ name: String, maximumCount: Int, required: Bool = true) throws(ScenarioError) -> [JSONValue] {
        guard let value = self.members[name], value != .null else {
            if required { throw ScenarioError(.invalidMember, "\(self.place(name)) is missing") }
            return []
        }
        guard let elements = value.arrayValue else { throw ScenarioError(.invalidMember, "\(self.place(name)) is not an array") }
        guard elements.count <= maximumCount else {
            throw ScenarioError(.invalidMember, "\(self.place(name)) holds \(elements.count) elements; at most \(maximumCount)")
        }
        return elements
    }
}
