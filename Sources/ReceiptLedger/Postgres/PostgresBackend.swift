import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import _ReceiptKitShared

/// PostgreSQL through PostgresNIO's connection pool. Writes run in transactions; migrations additionally hold a
/// transaction-scoped advisory lock, so instances starting together migrate one after the other.
struct PostgresBackend: SQLBackend {
    /// The pool, replaced while the server is unreachable.
    let pools: PostgresPools
    let logger: Logger
    let reachability: PostgresReachability
    /// Finds why no connection opens, when the server goes away; `nil` for a pool configured by the caller.
    let diagnosis: PostgresConnectionDiagnosis?

    init(
        pools: PostgresPools, logger: Logger, diagnosis: PostgresConnectionDiagnosis?,
        answeringLeaseLimit: Duration = PostgresReachability.answeringLimit
    ) {
        self.pools = pools
        self.logger = logger
        self.diagnosis = diagnosis
        self.reachability = PostgresReachability(answeringLimit: answeringLeaseLimit)
    }

    /// The advisory lock key migrations serialise on ("rkit" in ASCII).
    static let migrationLockKey: Int64 = 0x726B_6974

    var dialect: SQLDialect { .postgres }
    /// Other instances write too: snapshots are kept only while ``PostgresChangeListener`` hears their changes.
    var seesEveryWrite: Bool { false }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await self.leased { connection in
            try await body(Session(connection: connection, logger: self.logger))
        }
    }

    func transaction<T: Sendable>(
        exclusive: Bool,
        _ body: @escaping @Sendable (any SQLSession) async throws -> T
    ) async throws -> T {
        try await self.leased { connection in
            try await connection.withTransaction(logger: self.logger) { connection in
                let session = Session(connection: connection, logger: self.logger)
                if exclusive {
                    _ = try await session.run(
                        SQLStatement(sql: "SELECT pg_advisory_xact_lock($1)", binds: [.integer(Self.migrationLockKey)]))
                }
                return try await body(session)
            }
        }
    }

    /// Runs `body` on a pooled connection, or throws `unavailable` when none is leased within the reachability's
    /// limit (the lease is then cancelled; `body` never starts). Once `body` has started it runs to its end.
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let limit = self.reachability.leaseLimit
        let lease = NIOLockedValueBox(LeaseState.waiting)
        let work = Task {
            // A lease that fails by itself (the pool's error, a cancelled caller) is over too: the ticker must not
            // then call it a timeout and mark the server unreachable.
            defer { lease.withLockedValue { _ = $0.advance(to: .finished) } }
            while true {
                let pool = self.pools.current
                do {
                    return try await pool.withConnection { connection in
                        guard lease.withLockedValue({ $0.advance(to: .leased) }) else { throw CancellationError() }
                        return try await self.reachability.using({ try await body(connection) }) { cameBack in
                            if cameBack { self.logger.warning("PostgreSQL answers again: the ledger is available") }
                        }
                    }
                } catch {
                    let waiting = lease.withLockedValue { $0 == .waiting }
                    guard waiting, !Task.isCancelled else { throw error }
                    // The pool was replaced (the server unreachable) while this lease waited on it: wait on the
                    // fresh one, within the same limit.
                    if pool !== self.pools.current { continue }
                    // The pool failed the lease without a connection: its circuit breaker is open (no connection
                    // for a minute), an outage as sure as a lease that times out.
                    throw NoConnection()
                }
            }
        }
        // One ticking task expires every waiting lease, not a timer each (the catalog's Measurements say why);
        // once leased, `body` runs to its end.
        let ticket = DeadlineTicker.shared.register(limit: limit) {
            if lease.withLockedValue({ $0.advance(to: .expired) }) { work.cancel() }
        }
        let result = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        DeadlineTicker.shared.unregister(ticket)
        let expired = lease.withLockedValue { $0 == .expired }
        let refused: Bool
        if case .failure(let error) = result, error is NoConnection { refused = true } else { refused = false }
        if expired || refused {
            let what = expired ? "no connection within \(limit)" : "no connection (the pool gave up connecting)"
            guard self.reachability.leaseTimedOut() else {
                throw LedgerError(.unavailable, "PostgreSQL: \(what) (server unreachable)")
            }
            // It just went away: once per outage, say why (the pool's own errors are only in its log).
            let cause = await self.diagnosis?.cause(within: .seconds(3))
            let reason = "PostgreSQL: \(what)" + (cause.map { ": \($0)" } ?? " (server unreachable)")
            self.logger.warning("the ledger is unavailable", metadata: ["reason": "\(reason)"])
            throw LedgerError(.unavailable, reason)
        }
        return try result.get()
    }

    /// The pool failed a lease before giving it a connection.
    private struct NoConnection: Error {}

    /// A lease's race between the pool and the clock: whichever moves it out of `waiting` first wins.
    enum LeaseState {
        case waiting, leased, expired, finished

        mutating func advance(to next: LeaseState) -> Bool {
            guard self == .waiting else { return false }
            self = next
            return true
        }
    }

    func ledgerError(_ error: any Error) -> LedgerError {
        // withTransaction wraps what the body threw.
        if let wrapped = error as? PostgresTransactionError {
            if let closure = wrapped.closureError { return self.ledgerError(closure) }
            if let begin = wrapped.beginError { return self.ledgerError(begin) }
            if let commit = wrapped.commitError { return self.ledgerError(commit) }
        }
        if let error = error as? LedgerError { return error }
        guard let error = error as? PSQLError else {
            return LedgerError(.unavailable, "PostgreSQL: \(type(of: error))")
        }
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? ""
            // 08 connection, 40 serialisation/deadlock, 53 resources, 57 operator intervention: worth retrying.
            if ["08", "40", "53", "57"].contains(where: { state.hasPrefix($0) }) {
                return LedgerError(.unavailable, "PostgreSQL \(state): \(message)")
            }
            return LedgerError(.statementFailed, "PostgreSQL \(state): \(message)")
        }
        return LedgerError(.unavailable, "PostgreSQL: \(error.code)")
    }

    func shutdown() async {}

    struct Session: SQLSession {
        let connection: PostgresConnection
        let logger: Logger

        func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
            var result: [[SQLValue]] = []
            if statement.sql == PostgresSnapshotStatement.sql {
                if let rows = try await self.prepared(PostgresSnapshotStatement(binds: statement.binds)) { return rows }
            } else if statement.sql == PostgresRecogniseStatement.sql {
                if let rows = try await self.prepared(PostgresRecogniseStatement(binds: statement.binds)) { return rows }
            }
            let rows = try await self.connection.query(
                PostgresQuery(unsafeSQL: statement.sql, binds: try Self.bindings(statement.binds)), logger: self.logger)
            for try await row in rows {
                var values: [SQLValue] = []
                for cell in row {
                    values.append(try Self.value(cell))
                }
                result.append(values)
            }
            return result
        }

        /// The rows of a prepared statement, or `nil` when the server refused it: PostgresNIO remembers a failed
        /// preparation for the connection's life, so the same statement unprepared is what can still answer on it
        /// (and fails again for what really fails). A connection gone or a cancelled caller is rethrown.
        private func prepared<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [[SQLValue]]?
        where Statement.Row == [SQLValue] {
            do {
                var result: [[SQLValue]] = []
                for try await row in try await self.connection.execute(statement, logger: self.logger) {
                    result.append(row)
                }
                return result
            } catch let error as PSQLError where error.code == .server {
                return nil
            }
        }

        static func bindings(_ values: [SQLValue]) throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: values.count)
            for value in values {
                switch value {
                case .text(let text): bindings.append(text)
                case .integer(let integer): bindings.append(integer)
                case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
                case .null: bindings.appendNull()
                case .texts(let texts): bindings.append(texts)
                }
            }
            return bindings
        }

        static func value(_ cell: PostgresCell) throws -> SQLValue {
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .bytea: return .blob(Array(try cell.decode(ByteBuffer.self).readableBytesView))
            default: return .text(try cell.decode(String.self))
            }
        }
    }
}
