/// A value bound to a statement, independent of the driver.
enum SQLValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    case blob([UInt8])
    case null
    /// A list of texts bound as one PostgreSQL `text[]` (`unnest($n)`); the SQLite dialect never binds one.
    case texts([String])

    static func integer(_ value: Int64?) -> SQLValue {
        value.map { .integer($0) } ?? .null
    }
}
