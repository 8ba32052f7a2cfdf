/// A column of a ledger table: its name, its SQL type, the value a record puts in it and how a stored value is put
/// back into a record. A record's column table (``LedgerTable/columns``) is the one place a column is named: the
/// upserts read it for the column list and the bound values, and the snapshot query for what it selects and how each
/// selected value is read back — so writes, reads and the SQL cannot fall out of step.
struct LedgerColumn<Record>: Sendable {
    let name: String
    let type: SQLColumnType
    let value: @Sendable (Record) -> SQLValue
    /// Puts a stored value into a record; `nil` for a scope column (environment, app), which a read takes from its
    /// query instead of the row, and for a column a snapshot does not read (``writeOnly(_:_:)``).
    let read: (@Sendable (inout Record, SQLValue) throws(LedgerError) -> Void)?

    /// A column the snapshot query does not select: the query's scope (environment, bundle id).
    static func scope(_ name: String, _ value: @escaping @Sendable (Record) -> String) -> Self {
        Self(name: name, type: .text, value: { .text(value($0)) }, read: nil)
    }

    /// A column written with its record and never selected by a snapshot (read on its own, by a query of its own).
    static func writeOnly(_ name: String, _ value: @escaping @Sendable (Record) -> SQLValue) -> Self {
        Self(name: name, type: .text, value: value, read: nil)
    }

    static func text(
        _ name: String, _ get: @escaping @Sendable (Record) -> String, _ set: @escaping @Sendable (inout Record, String) -> Void
    ) -> Self {
        Self.typed(name, .text, get, set, write: { .text($0) }, read: { value throws(LedgerError) in try value.text() })
    }

    static func optionalText(
        _ name: String, _ get: @escaping @Sendable (Record) -> String?, _ set: @escaping @Sendable (inout Record, String?) -> Void
    ) -> Self {
        Self.typed(name, .text, get, set, write: { $0.map(SQLValue.text) ?? .null }, read: { value throws(LedgerError) in try value.optionalText() })
    }

    /// UTF-8 JSON kept in a text column.
    static func json(
        _ name: String, _ get: @escaping @Sendable (Record) -> [UInt8], _ set: @escaping @Sendable (inout Record, [UInt8]) -> Void
    ) -> Self {
        Self.typed(
            name, .text, get, set, write: { .text(String(decoding: $0, as: UTF8.self)) },
            read: { value throws(LedgerError) in Array(try value.text().utf8) })
    }

    static func integer(
        _ name: String, _ get: @escaping @Sendable (Record) -> Int64, _ set: @escaping @Sendable (inout Record, Int64) -> Void
    ) -> Self {
        Self.typed(name, .integer, get, set, write: { .integer($0) }, read: { value throws(LedgerError) in try value.integer() })
    }

    static func optionalInteger(
        _ name: String, _ get: @escaping @Sendable (Record) -> Int64?, _ set: @escaping @Sendable (inout Record, Int64?) -> Void
    ) -> Self {
        Self.typed(name, .integer, get, set, write: { .integer($0) }, read: { value throws(LedgerError) in try value.optionalInteger() })
    }

    /// A column whose record property is `get`/`set`, written with `write` and read back with `read`.
    private static func typed<Value>(
        _ name: String,
        _ type: SQLColumnType,
        _ get: @escaping @Sendable (Record) -> Value,
        _ set: @escaping @Sendable (inout Record, Value) -> Void,
        write: @escaping @Sendable (Value) -> SQLValue,
        read: @escaping @Sendable (SQLValue) throws(LedgerError) -> Value
    ) -> Self {
        Self(name: name, type: type, value: { write(get($0)) }, read: { record, value throws(LedgerError) in
            set(&record, try read(value))
        })
    }
}
