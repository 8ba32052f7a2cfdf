/// A connection in use by one ledger operation.
protocol SQLSession: Sendable {
    /// Runs one statement and returns its rows, each as its columns' values in select order.
    func run(_ statement: SQLStatement) async throws -> [[SQLValue]]
}

/// What a database driver provides to ``LedgerOperations``: sessions for reads and for atomic writes.
protocol SQLBackend: Sendable {
    var dialect: SQLDialect { get }

    /// Whether every write to the database goes through this process, so that ``LedgerSnapshotCache`` may keep
    /// snapshots from the start (SQLite, whose file one process owns); else it waits to be told of others' writes.
    var seesEveryWrite: Bool { get }

    /// Runs `body` on a connection; each statement sees committed data.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T

    /// Runs `body` in one database transaction, committed when it returns and rolled back when it throws. With
    /// `exclusive`, concurrent callers (other processes included) are serialised for its whole duration.
    func transaction<T: Sendable>(
        exclusive: Bool,
        _ body: @escaping @Sendable (any SQLSession) async throws -> T
    ) async throws -> T

    /// The ledger error a driver error stands for.
    func ledgerError(_ error: any Error) -> LedgerError

    func shutdown() async
}
