/// The SQL type of a ledger column, spelled as both dialects accept it.
enum SQLColumnType: String, Sendable {
    case text = "TEXT"
    case integer = "BIGINT"
}
