/// Why ``buildApplication(configuration:)`` could not compose the service: a settings or anchor file that cannot be
/// read or is malformed, a database location that names none, or a database that cannot be opened.
///
/// Equality compares the code only; ``reason`` is for people (`--config serve.json: unknown setting "x" (…)`).
public struct ServiceStartupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The snake_case spelling.
        public let description: String
        init(_ description: String) { self.description = description }

        /// A settings or anchor file is missing, a folder, unreadable or too large.
        public static let unreadableFile = Code("unreadable_file")
        /// A settings file is not valid settings, or an anchor file holds no certificate.
        public static let malformedFile = Code("malformed_file")
        /// The database location is not `sqlite:PATH`, `sqlite::memory:` or a `postgres://` URL.
        public static let invalidDatabase = Code("invalid_database")
        /// The database could not be opened.
        public static let databaseUnavailable = Code("database_unavailable")
    }

    /// What went wrong.
    public let code: Code
    /// What, where and why, in words.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { self.reason }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(self.code) }
}
