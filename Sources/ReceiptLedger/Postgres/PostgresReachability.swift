import NIOConcurrencyHelpers

/// What the ledger last learnt of its PostgreSQL server, so that a server known to be down costs a caller
/// half a second, not a request timeout, and so that ``PostgresPools`` knows when to replace the pool.
///
/// PostgresNIO's pool queues a lease while it reconnects, until its circuit breaker trips (a minute without a
/// connection; then it fails leases at once). Each lease therefore has a limit: ``answeringLimit`` while the server
/// answers, ``unreachableLimit`` once a lease has gone unanswered or the pool failed it. A lease that succeeds (the
/// change listener's too) marks the server answering again. Connections in use are counted: one in use proves the
/// server answers, however long other leases wait (a busy server is not a lost one).
final class PostgresReachability: Sendable {
    /// How long a lease may wait while the server answers: well inside the service's request timeout (10 s) and
    /// above PostgresNIO's first reconnection attempts (100 ms, 125 ms, …), so one lost connection is not an outage.
    static let answeringLimit: Duration = .seconds(3)
    /// How long a lease may wait once the server is known to be unreachable.
    static let unreachableLimit: Duration = .milliseconds(500)

    private struct State {
        var unreachable = false
        /// Connections leased and not yet handed back.
        var inUse = 0
    }

    private let state = NIOLockedValueBox(State())
    /// The limit while the server answers (``answeringLimit`` unless the ledger was made with another).
    private let answering: Duration

    init(answeringLimit: Duration = PostgresReachability.answeringLimit) {
        self.answering = answeringLimit
    }

    /// Whether the last lease went unanswered (or the pool failed it).
    var isUnreachable: Bool { self.state.withLockedValue { $0.unreachable } }

    /// Whether the pool should be replaced: the server is unreachable and no connection of the pool is in use.
    var poolLooksLost: Bool { self.state.withLockedValue { $0.unreachable && $0.inUse == 0 } }

    /// Runs `body` as a connection in use; marks the server answering first (`true` when it was unreachable until
    /// now: it came back).
    func using<T>(_ body: () async throws -> T, cameBack: (Bool) -> Void) async rethrows -> T {
        cameBack(self.state.withLockedValue { state in
            defer { (state.unreachable, state.inUse) = (false, state.inUse + 1) }
            return state.unreachable
        })
        defer { self.state.withLockedValue { $0.inUse -= 1 } }
        return try await body()
    }

    /// The limit for the next lease.
    var leaseLimit: Duration {
        self.isUnreachable ? min(Self.unreachableLimit, self.answering) : self.answering
    }

    /// Marks the server unreachable; `true` when it answered until now (it just went away).
    @discardableResult
    func leaseTimedOut() -> Bool {
        self.state.withLockedValue { state in
            defer { state.unreachable = true }
            return !state.unreachable
        }
    }
}
