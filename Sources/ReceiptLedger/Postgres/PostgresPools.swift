import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle
import _ReceiptKitShared

/// The ledger's PostgreSQL connection pool, replaced by a fresh one once a fresh one connects while the pool in use
/// looks lost, so that the ledger answers again as soon as the server does, whatever the outage's length.
///
/// PostgresNIO's pool waits longer between connection attempts the longer they fail (100 ms × 1.25ⁿ, up to a
/// minute), and after a minute without a connection fails leases at once until one of those attempts succeeds:
/// left alone, it notices a server that came back late, the later the longer the outage. So every
/// ``replacementInterval`` while ``PostgresReachability`` says the pool looks lost — the server unreachable and none
/// of its connections in use (a busy server keeps its pool) — a candidate pool tries one connection, within
/// ``candidateLimit``; only once it has one does it become the pool in use, and the one replaced is shut down (a lease
/// waiting on it moves to the fresh one, ``PostgresBackend``). A candidate that cannot connect is dropped: the pool in
/// use is never given up for one that has not connected, so a server that is slow to accept connections (a loaded
/// machine) is not made slower by replacements that restart connecting.
final class PostgresPools: Sendable {
    /// How often a candidate is tried while the pool looks lost.
    static let replacementInterval: Duration = .seconds(1)
    /// How long a candidate may take to connect.
    static let candidateLimit: Duration = .seconds(5)

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

    /// Runs the pool in use until the task is cancelled or a graceful shutdown, trying a candidate every
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
            let candidate = PostgresClient(configuration: self.configuration, backgroundLogger: self.logger)
            // Unstructured, so that a pool can be ended alone; it inherits the graceful shutdown.
            let candidateRun = Task { await candidate.run() }
            let connected = await TimeLimited.run(Self.candidateLimit) { () async -> Bool in
                (try? await candidate.withConnection { _ in }) != nil
            }
            var retired = candidateRun
            if case .finished(true) = connected, isLost() {
                self.pool.withLockedValue { $0 = candidate }
                self.logger.debug("PostgreSQL: the connection pool is replaced by a fresh one that connected")
                retired = running
                running = candidateRun
            }
            retired.cancel()
            replaced.append(retired)
            // Bounded in a long outage: a pool retired a minute ago has ended (its connection attempts are
            // cancelled with it, and cannot outlast their timeout).
            if replaced.count > 64 { await replaced.removeFirst().value }
        }
        running.cancel()
        await running.value
        for old in replaced { await old.value }
    }
}
