/// The two SQL dialects the ledger speaks; they differ only in placeholders and a few column types.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// The placeholder for the `index`th (1-based) bound value.
    func placeholder(_ index: Int) -> String {
        switch self {
        case .sqlite: "?\(index)"
        case .postgres: "$\(index)"
        }
    }

    var blobType: String {
        switch self {
        case .sqlite: "BLOB"
        case .postgres: "BYTEA"
        }
    }

    var currentTimestamp: String {
        switch self {
        case .sqlite: "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
        case .postgres: "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"
        }
    }

    /// One row holding 1 when `receiptkit_schema` exists where the ledger's tables are looked for (PostgreSQL: the
    /// first schema of the `search_path` that has it), 0 when not — without creating it or needing the right to.
    var versionTableExists: String {
        switch self {
        case .sqlite:
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'receiptkit_schema'"
        case .postgres:
            "SELECT CASE WHEN to_regclass('receiptkit_schema') IS NULL THEN 0 ELSE 1 END"
        }
    }
}
