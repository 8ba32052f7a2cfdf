import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle

/// The ledger's PostgreSQL connection pool, replaced by a fresh one every ``replacementInterval`` while the server
/// is unreachable, so that the ledger answers again as soon as the server does, whatever the outage's length.
///
/// PostgresNIO's pool waits longer between connection attempts the longer they fail (100 ms × 1.25ⁿ, up to a
/// minute), and after a minute without a connection fails leases at once until one of those attempts succeeds:
/// left alone, it notices a server that came back late, the later the longer the outage. A fresh pool connects at
/// its first lease. So while ``PostgresReachability`` says the pool looks lost — the server unreachable and none of
/// its connections in use (a busy server keeps its pool) — the pool in use is at most ``replacementInterval`` old.
/// The pool replaced is shut down; a lease waiting on it moves to the fresh one (``PostgresBackend``).
final class PostgresPools: Sendable {
    /// How old the pool in use may be while the server is unreachable.
    static let replacementInterval: Duration = .seconds(1)

    private let configuration: PostgresClient.Configuration
    private let logger: Logger
    private let pool: NIOLockedValueBox<PostgresClient>

    init(configuration: PostgresClient.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.pool = NIOLockedValueBox(PostgresClient(configuration: configuration, backgroundLogger: logger))
    }

    /// The pool to lease from now.
    var current: PostgresClient { self.pool.withLockedValue { $0 } }

    /// Runs the pool in use until the task is cancelled or a graceful shutdown, replacing it every
    /// ``replacementInterval`` while `isLost()`; returns once every pool it ran has ended.
    func run(isLost: @escaping @Sendable () -> Bool) async {
        let first = self.current
        var running = Task { await first.run() }
        var replaced: [Task<Void, Never>] = []
        while true {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.replacementInterval) }
            } catch {
                break
            }
            guard isLost() else { continue }
            let fresh = PostgresClient(configuration: self.configuration, backgroundLogger: self.logger)
            let old = running
            // Unstructured, so that the pool replaced can be ended alone; it inherits the graceful shutdown.
            running = Task { await fresh.run() }
            self.pool.withLockedValue { $0 = fresh }
            self.logger.debug("PostgreSQL unreachable: the connection pool is replaced by a fresh one")
            old.cancel()
            replaced.append(old)
            // Bounded in a long outage: a pool replaced a minute ago has ended (its connection attempts are
            // cancelled with it, and cannot outlast their timeout).
            if replaced.count > 64 { await replaced.removeFirst().value }
        }
        running.cancel()
        await running.value
        for old in replaced { await old.value }
    }
}
