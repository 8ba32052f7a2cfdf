/// Where the ledger lives, as `receiptkit serve --database` names it.
///
/// - `sqlite:PATH` (`sqlite:./receiptkit.sqlite`, `sqlite:///var/lib/receiptkit.sqlite`): an SQLite file,
///   created on first use; `sqlite::memory:` keeps it in memory for the life of the process.
/// - `postgres://user:password@host:port/database?sslmode=disable`: a PostgreSQL database (created beforehand).
public enum LedgerLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite file, or memory when `nil`.
    case sqlite(path: String?)
    /// A PostgreSQL URL.
    case postgres(url: String)

    /// The default: `receiptkit.sqlite` in the working directory.
    public static let `default` = LedgerLocation.sqlite(path: "receiptkit.sqlite")

    /// Parses a `--database` value.
    public init(_ text: String) throws(LedgerError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            _ = try PostgresLocation(url: text)
            self = .postgres(url: text)
        } else if lowered.hasPrefix("sqlite:") {
            var path = Substring(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = path.dropFirst(2) }
            guard !path.isEmpty else {
                throw LedgerError(.invalidLocation, "sqlite: needs a path (sqlite:./receiptkit.sqlite) or :memory:")
            }
            self = .sqlite(path: path == ":memory:" ? nil : String(path))
        } else {
            throw LedgerError(.invalidLocation, "the database must be sqlite:PATH, sqlite::memory: or postgres://…")
        }
    }

    /// The location without a password, for logs.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path ?? ":memory:")"
        case .postgres(let url):
            guard let location = try? PostgresLocation(url: url) else { return "postgres://…" }
            return "postgres://\(location.user)@\(location.host):\(location.port)/\(location.database ?? "")"
        }
    }
}
