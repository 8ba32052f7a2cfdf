/// Where one ledger operation runs its statements: one connection (PostgreSQL's, SQLite's writer), or for SQLite's
/// reads whichever reader is free, statement by statement.
protocol SQLSession: Sendable {
    /// Runs one statement and returns its rows, each as its columns' values in select order.
    func run(_ statement: SQLStatement) async throws -> [[SQLValue]]

    /// Runs `first`, then the statements `next` makes of its rows, in order, and returns the rows of each: `first`'s,
    /// then those of `next`'s statements. SQLite's readers run them all in one hop to one reader's thread; other
    /// sessions one after the other.
    func run(
        _ first: SQLStatement, then next: @escaping @Sendable ([[SQLValue]]) throws -> [SQLStatement]
    ) async throws -> [[[SQLValue]]]
}

extension SQLSession {
    func run(
        _ first: SQLStatement, then next: @escaping @Sendable ([[SQLValue]]) throws -> [SQLStatement]
    ) async throws -> [[[SQLValue]]] {
        var results = [try await self.run(first)]
        for statement in try next(results[0]) { results.append(try await self.run(statement)) }
        return results
    }
}

/// What a database driver provides to ``LedgerOperations``: sessions for reads and for atomic writes.
protocol SQLBackend: Sendable {
    var dialect: SQLDialect { get }

    /// Whether every write to the database goes through this process, so that ``LedgerSnapshotCache`` may keep
    /// snapshots from the start (SQLite, whose file one process owns); else it waits to be told of others' writes.
    var seesEveryWrite: Bool { get }

    /// Runs `body` with a session whose statements each see committed data (not one snapshot across statements).
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
