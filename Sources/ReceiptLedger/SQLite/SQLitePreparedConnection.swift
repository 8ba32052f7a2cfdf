import VaporCSQLite

/// One SQLite connection driven through SQLite's C API (SQLiteNIO's vendored amalgamation), with its prepared
/// statements kept.
///
/// SQLiteNIO prepares every statement again and hands each row to an event loop as a future of its own; `perf` of
/// the service showed the preparation as a large share of the ledger's time, on the read path and on the one writer
/// thread every write waits for (the figures: the ledger's documentation, "Measurements"). So the ledger's
/// connections are its own: a statement's text is prepared once per connection, and its rows are collected on the
/// calling thread.
///
/// Not thread-safe: one thread at a time (``SQLiteReaders`` lends a reader to one thread; the writer has a thread of
/// its own and takes turns).
final class SQLitePreparedConnection: @unchecked Sendable {
    private let maximumStatements: Int
    private var handle: OpaquePointer?
    /// The kept statements by text, each with the turn it was last used in (the least recent is finalized first).
    private var statements: [String: (statement: OpaquePointer, used: UInt64)] = [:]
    private var turn: UInt64 = 0

    /// SQLite initialised once per process before its first connection, as SQLiteNIO does: `sqlite3_initialize` is
    /// thread-safe, but the lazy one inside `sqlite3_open_v2` may race with configuration calls.
    private static let initialised: Int32 = sqlite_nio_sqlite3_initialize()

    /// How many statements the connection holds prepared, as SQLite counts them (finalized ones are not). On the
    /// connection's thread only, like every other call.
    var preparedStatements: Int {
        guard self.handle != nil else { return 0 }
        var count = 0
        var statement = sqlite_nio_sqlite3_next_stmt(self.handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite_nio_sqlite3_next_stmt(self.handle, current)
        }
        return count
    }

    /// Opens `path`, creating it when `readOnly` is false (`nil`: a database in memory), keeping at most
    /// `maximumStatements` prepared (past it they are finalized and prepared again as they come). A reader refuses to
    /// write.
    init(path: String?, readOnly: Bool, maximumStatements: Int) throws(LedgerError) {
        self.maximumStatements = maximumStatements
        guard Self.initialised == SQLITE_OK else {
            throw Self.error(Self.initialised, "SQLite cannot be initialised")
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (readOnly ? 0 : SQLITE_OPEN_CREATE)
        let opened = sqlite_nio_sqlite3_open_v2(path ?? ":memory:", &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map(Self.message) ?? "cannot open"
            sqlite_nio_sqlite3_close(handle)
            throw Self.error(opened, "SQLite \(path ?? ":memory:"): \(message)")
        }
        self.handle = handle
        // Another process holding the file's lock makes a statement fail as busy (retryable) after 5 s.
        sqlite_nio_sqlite3_busy_timeout(handle, 5000)
        guard readOnly else { return }
        do {
            _ = try self.run(SQLStatement(sql: "PRAGMA query_only = ON", binds: []))
        } catch {
            self.close()
            throw error
        }
    }

    /// The texts of the statements kept (which the cache drops first is its business; tests read it).
    var keptStatements: Set<String> { Set(self.statements.keys) }

    /// How many times SQLite prepared the kept statement `sql` again by itself since it was first prepared
    /// (`SQLITE_STMTSTATUS_REPREPARE`: a schema change, or a bound value its plan depends on), `nil` when none is
    /// kept. A statement on a hot path should count none: it is then parsed and planned once per connection.
    func repreparations(of sql: String) -> Int? {
        guard let kept = self.statements[sql] else { return nil }
        return Int(sqlite_nio_sqlite3_stmt_status(kept.statement, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    /// Runs `statement` and returns its rows, each as its columns' values in select order.
    func run(_ statement: SQLStatement) throws(LedgerError) -> [[SQLValue]] {
        guard let handle = self.handle else { throw LedgerError(.unavailable, "SQLite: the connection is closed") }
        let prepared = try self.prepared(statement.sql, handle: handle)
        defer {
            sqlite_nio_sqlite3_reset(prepared)
            sqlite_nio_sqlite3_clear_bindings(prepared)
        }
        for (offset, value) in statement.binds.enumerated() {
            try self.bind(value, at: Int32(offset + 1), of: prepared, handle: handle)
        }
        let columns = sqlite_nio_sqlite3_column_count(prepared)
        var rows: [[SQLValue]] = []
        while true {
            let stepped = sqlite_nio_sqlite3_step(prepared)
            if stepped == SQLITE_DONE { return rows }
            guard stepped == SQLITE_ROW else { throw Self.error(stepped, "SQLite: \(Self.message(handle))") }
            var row: [SQLValue] = []
            row.reserveCapacity(Int(columns))
            for column in 0..<columns { row.append(try Self.value(prepared, column)) }
            rows.append(row)
        }
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    var isInTransaction: Bool {
        guard let handle = self.handle else { return false }
        return sqlite_nio_sqlite3_get_autocommit(handle) == 0
    }

    /// Finalizes the kept statements and closes the connection.
    func close() {
        for kept in self.statements.values { sqlite_nio_sqlite3_finalize(kept.statement) }
        self.statements = [:]
        // v2: the handle is freed once the last statement is, whatever remains unfinalized.
        sqlite_nio_sqlite3_close_v2(self.handle)
        self.handle = nil
    }

    deinit { self.close() }

    private func prepared(_ sql: String, handle: OpaquePointer) throws(LedgerError) -> OpaquePointer {
        self.turn &+= 1
        if let kept = self.statements[sql] {
            self.statements[sql] = (kept.statement, self.turn)
            return kept.statement
        }
        if self.statements.count >= self.maximumStatements,
            let oldest = self.statements.min(by: { $0.value.used < $1.value.used })
        {
            sqlite_nio_sqlite3_finalize(oldest.value.statement)
            self.statements[oldest.key] = nil
        }
        var statement: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite_nio_sqlite3_finalize(statement)
            throw Self.error(result, "SQLite: \(Self.message(handle))")
        }
        self.statements[sql] = (statement, self.turn)
        return statement
    }

    private func bind(
        _ value: SQLValue, at index: Int32, of statement: OpaquePointer, handle: OpaquePointer
    ) throws(LedgerError) {
        let result: Int32
        switch value {
        case .text(let text):
            result = sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .integer(let integer):
            result = sqlite_nio_sqlite3_bind_int64(statement, index, integer)
        case .blob(let bytes) where bytes.isEmpty:
            // A zero-length blob, not NULL (which a nil base address would bind).
            result = sqlite_nio_sqlite3_bind_zeroblob(statement, index, 0)
        case .blob(let bytes):
            result = bytes.withUnsafeBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
            }
        case .null:
            result = sqlite_nio_sqlite3_bind_null(statement, index)
        case .texts:
            throw LedgerError(.statementFailed, "SQLite binds no list (a PostgreSQL statement)")
        }
        guard result == SQLITE_OK else { throw Self.error(result, "SQLite: \(Self.message(handle))") }
    }

    /// Column `column` of the current row, as SQLiteNIO's readers gave it (a real number as its text).
    private static func value(_ statement: OpaquePointer, _ column: Int32) throws(LedgerError) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite_nio_sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .text(String(sqlite_nio_sqlite3_column_double(statement, column)))
        case SQLITE_TEXT:
            // The pointer first, then the length (SQLite's documented order); no pointer is SQLite out of memory.
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else {
                throw LedgerError(.unavailable, "SQLite: out of memory reading a text")
            }
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite_nio_sqlite3_column_blob(statement, column)
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            guard count > 0 else { return .blob([]) }
            guard let bytes else { throw LedgerError(.unavailable, "SQLite: out of memory reading a blob") }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    private static func message(_ handle: OpaquePointer) -> String {
        sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown error"
    }

    /// A result code as the ledger's error: the database busy, locked, out of room or unreachable is
    /// ``LedgerError/Code/unavailable`` (retryable), anything else ``LedgerError/Code/statementFailed``.
    static func error(_ code: Int32, _ message: String) -> LedgerError {
        switch code & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_INTERRUPT:
            LedgerError(.unavailable, message)
        default:
            LedgerError(.statementFailed, message)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
