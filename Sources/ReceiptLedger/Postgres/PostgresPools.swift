import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle

/// The ledger's PostgreSQL connection pool, replaced by a fresh one every ``replacementInterval`` while the server
/// is unreachable, so that the ledger answers again as soon as the server does, whatever the outage's length.
///
/// PostgresNIO's pool waits longer between connection attempts the longer they fail (100 ms × 1.25ⁿ, up to a
/// minute), and after 15 s without a connection fails leases at once until one of those attempts succeeds: left
/// alone, it noticed a server back after a 30 s outage several seconds late, after a long outage up to a minute
/// late. A fresh pool connects at its first lease. So while ``PostgresReachability`` says the server is
/// unreachable, the pool in use is at most ``replacementInterval`` old. The pool replaced is shut down: a lease
/// still waiting on it fails, as it would have (the server did not answer).
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
    /// ``replacementInterval`` while `isUnreachable()`.
    func run(isUnreachable: @escaping @Sendable () -> Bool) async {
        let first = self.current
        var running = Task { await first.run() }
        while true {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.replacementInterval) }
            } catch {
                break
            }
            guard isUnreachable() else { continue }
            let fresh = PostgresClient(configuration: self.configuration, backgroundLogger: self.logger)
            let replaced = running
            // Unstructured, so that the pool replaced can be ended alone; it inherits the graceful shutdown.
            running = Task { await fresh.run() }
            self.pool.withLockedValue { $0 = fresh }
            self.logger.debug("PostgreSQL unreachable: the connection pool is replaced by a fresh one")
            replaced.cancel()
        }
        running.cancel()
        await running.value
    }
}
