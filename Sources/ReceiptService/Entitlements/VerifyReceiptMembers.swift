import _ReceiptKitShared

/// The members of a stored verifyReceipt element (`latest_receipt_info`, `pending_renewal_info`), read as Apple
/// writes them: every value a string, dates and numbers in digits. An element that is not a JSON object reads as
/// empty.
struct VerifyReceiptMembers: Sendable {
    private let members: [String: JSONValue]

    init(_ json: [UInt8]) {
        if case .object(let members)? = try? JSONParser.parse(json, maximumDepth: 4) {
            self.members = members
        } else {
            self.members = [:]
        }
    }

    /// The member's string, `nil` when absent, empty or not a string.
    func string(_ key: String) -> String? {
        guard case .string(let value)? = self.members[key], !value.isEmpty else { return nil }
        return value
    }

    /// The member's digits as a number (`"1563826723000"`), `nil` otherwise.
    func integer(_ key: String) -> Int64? {
        self.string(key).flatMap { Int64($0) }
    }
}
