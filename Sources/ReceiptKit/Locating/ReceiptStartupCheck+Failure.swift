extension ReceiptStartupCheck {
    /// Why the startup check has no verdict: the receipt could not be read, or what was read is not a receipt.
    /// Either means "exit with 173".
    public enum Failure: Error, Sendable, Hashable {
        /// The bundle has no receipt, or it cannot be read.
        case unreadable(ReceiptFileError)
        /// The receipt's bytes do not decode.
        case malformed(ReceiptError)

        /// The failure's stable code (`unreadable_file`, `malformed_container`, …).
        public var code: String {
            switch self {
            case .unreadable(let error): return error.code.rawValue
            case .malformed(let error): return error.code.rawValue
            }
        }

        /// A human-readable explanation. Never branch on this text.
        public var reason: String {
            switch self {
            case .unreadable(let error): return error.reason
            case .malformed(let error): return error.reason
            }
        }
    }
}
