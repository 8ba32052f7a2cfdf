import NIOConcurrencyHelpers

/// What the ledger last learnt of its PostgreSQL server, so that a server known to be down costs a caller
/// half a second, not a request timeout.
///
/// PostgresNIO's pool queues a lease while it reconnects, until its circuit breaker trips (60 s without a
/// connection). Each lease therefore
/// has a limit: ``answeringLimit`` while the server answers, ``unreachableLimit`` once a lease has gone unanswered
/// (the pool could not connect in that time). A lease that succeeds marks the server answering again; until then
/// ``PostgresPools`` keeps the pool fresh, so that the first lease after the server returns connects at once.
final class PostgresReachability: Sendable {
    /// How long a lease may wait while the server answers: well inside the service's request timeout (10 s) and
    /// above PostgresNIO's first reconnection attempts (100 ms, 125 ms, …), so one lost connection is not an outage.
    static let answeringLimit: Duration = .seconds(3)
    /// How long a lease may wait once the server is known to be unreachable.
    static let unreachableLimit: Duration = .milliseconds(500)

    private let unreachable = NIOLockedValueBox(false)

    /// Whether the last lease went unanswered.
    var isUnreachable: Bool { self.unreachable.withLockedValue { $0 } }

    /// The limit for the next lease.
    var leaseLimit: Duration {
        self.isUnreachable ? Self.unreachableLimit : Self.answeringLimit
    }

    /// Marks the server answering; `true` when it was unreachable until now (it came back).
    @discardableResult
    func leaseSucceeded() -> Bool {
        self.unreachable.withLockedValue { unreachable in
            defer { unreachable = false }
            return unreachable
        }
    }

    /// Marks the server unreachable; `true` when it answered until now (it just went away).
    @discardableResult
    func leaseTimedOut() -> Bool {
        self.unreachable.withLockedValue { unreachable in
            defer { unreachable = true }
            return !unreachable
        }
    }
}
