/// How a verifyReceipt key's value is written in JSON, whichever table writes it: the receipt tables
/// (``InAppPurchase`` through `ReceiptFieldVisitor`) or the service's tables from signed data. Two tables that write
/// one key must write it in one shape (the service's tests compare them).
package enum VerifyReceiptValueShape: Sendable, Hashable, CustomStringConvertible {
    /// A JSON string as it is.
    case string
    /// An integer as a string of digits (`"quantity":"1"`).
    case digits
    /// An integer as a JSON number.
    case number
    /// A flag as `"true"` or `"false"`.
    case textFlag
    /// A flag as `"1"` or `"0"`.
    case digitFlag
    /// A date as three keys: `key` (GMT), `key_ms`, `key_pst`.
    case date
    /// Bytes as base64.
    case base64

    package var description: String {
        switch self {
        case .string: return "string"
        case .digits: return "digits"
        case .number: return "number"
        case .textFlag: return "\"true\"/\"false\""
        case .digitFlag: return "\"1\"/\"0\""
        case .date: return "date"
        case .base64: return "base64"
        }
    }
}
