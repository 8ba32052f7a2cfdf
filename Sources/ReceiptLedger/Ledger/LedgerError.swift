public import _ReceiptKitShared

/// An error from a ``Ledger``: the database could not be reached, refused a statement, or holds data this version
/// cannot read.
public struct LedgerError: CodedError {
    public let code: Code, reason: String

    /// Creates an error (for ``Ledger`` implementations of your own).
    public init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// Whether retrying the same operation later can succeed (the database was unreachable or busy).
    public var isRetryable: Bool { self.code == .unavailable }

    /// The kind of a ``LedgerError``.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// The database cannot be reached or is busy; a retry may succeed.
        public static let unavailable = Code("unavailable")
        /// The database rejected a statement.
        public static let statementFailed = Code("statement_failed")
        /// The database's schema is newer than this version understands, or a row cannot be read.
        public static let incompatibleSchema = Code("incompatible_schema")
        /// The database URL is not one this version understands.
        public static let invalidLocation = Code("invalid_location")
        /// The ledger was shut down.
        public static let closed = Code("closed")
        /// Another process (or another ledger in this one) owns the SQLite file: one process owns an SQLite ledger.
        /// Not retryable while the owner runs.
        public static let inUse = Code("in_use")
        /// A string to be stored holds U+0000, refused before any write: PostgreSQL's `text` cannot store it and
        /// SQLite can, so both backends refuse it alike. Not retryable.
        public static let stringContainsNUL = Code("string_contains_nul")
    }
}
