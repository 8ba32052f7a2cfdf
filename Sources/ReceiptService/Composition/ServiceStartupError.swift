public import _ReceiptKitShared

/// Why ``buildApplication(configuration:)`` could not compose the service: a settings or anchor file that cannot be
/// read or is malformed, a setting out of its range (each message names where the value came from: the file, the
/// `RECEIPTKIT_…` variable or the flag), a database location that names none, or a database that cannot be opened.
///
/// Equality compares the code only; ``reason`` is for people (`--config serve.json: unknown setting "x" (…)`).
public struct ServiceStartupError: CodedError {
    public let code: Code, reason: String

    init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``ServiceStartupError``. New codes may be added in minor releases, so switch with a `default`.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A settings or anchor file is missing, a folder, unreadable or too large.
        public static let unreadableFile = Code("unreadable_file")
        /// A settings file is not valid settings, or an anchor file holds no certificate.
        public static let malformedFile = Code("malformed_file")
        /// A setting given in code or on the command line is out of its range or of the wrong kind (a settings
        /// file's are refused as `malformed_file`, an environment variable's as `malformed_environment`), e.g. an App
        /// Store Server API refresh wait of zero.
        public static let invalidSetting = Code("invalid_setting")
        /// A `RECEIPTKIT_…` environment variable's value is out of its range or of the wrong kind.
        public static let malformedEnvironment = Code("malformed_environment")
        /// The database location is not `sqlite:PATH`, `sqlite::memory:` or a `postgres://` URL.
        public static let invalidDatabase = Code("invalid_database")
        /// The database could not be opened.
        public static let databaseUnavailable = Code("database_unavailable")
        /// Another process owns the SQLite file (another `receiptkit serve`): one process owns an SQLite ledger.
        public static let databaseInUse = Code("database_in_use")
        /// `migrate_on_start` is false and the ledger is not at this build's schema version: it must be migrated
        /// first (`receiptkit serve --migrate`, as a role that may change the schema).
        public static let schemaNotCurrent = Code("schema_not_current")
    }
}
