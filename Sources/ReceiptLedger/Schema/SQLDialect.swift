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

    /// The larger of two values: SQLite's two-argument `MAX`, PostgreSQL's `GREATEST`.
    var greatest: String {
        switch self {
        case .sqlite: "MAX"
        case .postgres: "GREATEST"
        }
    }

    var currentTimestamp: String {
        switch self {
        case .sqlite: "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
        case .postgres: "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"
        }
    }

    /// The next change number of `receiptkit_transactions` (``LedgerCustomerTransaction/changeNumber``), evaluated
    /// in the writing statement: PostgreSQL's sequence, shared by every instance; on SQLite, whose one writer
    /// commits in turn, one more than the largest stored (an index reads it).
    var nextChangeNumber: String {
        switch self {
        case .sqlite: "(SELECT COALESCE(MAX(change_seq), 0) + 1 FROM receiptkit_transactions)"
        case .postgres: "nextval('receiptkit_change_seq')"
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
