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
}
