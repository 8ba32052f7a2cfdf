import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import ServiceLifecycle
import _ReceiptKitShared

/// Listens on ``LedgerMigration/changeChannel`` for the original transaction ids other clients write (the schema's
/// triggers announce them at commit), so that ``LedgerSnapshotCache`` may keep snapshots on a shared database.
///
/// The cache works only while the listener is connected (and the schema has the triggers): when the connection
/// fails it stops and is flushed (changes made meanwhile were not heard), and starts again, flushed, once listening
/// resumes. A change
/// committed elsewhere reaches this instance's cache when its notification arrives: until then, a few milliseconds
/// on a healthy network, this instance may answer as before that change.
struct PostgresChangeListener: Sendable {
    let pools: PostgresPools
    /// Told that the listener's connection works: the server answers.
    let reachability: PostgresReachability
    let cache: LedgerSnapshotCache
    let logger: Logger

    /// The wait before listening again after the connection failed.
    static let retryDelay: Duration = .seconds(1)

    /// Listens until cancelled or the service group shuts down, connecting again after each failure.
    func run() async {
        defer { self.cache.setHearsWrites(false) }
        while !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown {
                    try await self.pools.current.withConnection { connection in
                        try await self.reachability.using({ try await self.listen(on: connection) }) { _ in }
                    }
                }
            } catch {
                // Said once when a listener that worked stops, not once a second while PostgreSQL is away.
                if self.cache.hearsWrites, !Task.isCancelled {
                    self.logger.warning(
                        "ledger change listener stopped; snapshots are not cached until it is back",
                        metadata: ["error": "\(String(reflecting: error))"])
                }
            }
            self.cache.setHearsWrites(false)
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.retryDelay) }
            } catch {
                return
            }
        }
    }

    /// How often the listening connection is asked `SELECT 1`, and how long it may take to answer: a connection
    /// cut without a word (a silent network partition) would otherwise keep the cache answering while other
    /// instances' writes go unheard. Snapshots may thus be kept at most about the sum after the cut.
    static let heartbeatInterval: Duration = .seconds(2)
    static let heartbeatLimit: Duration = .seconds(2)

    /// Listens on `connection` until listening ends (it always ends by throwing), then closes it.
    private func listen(on connection: PostgresConnection) async throws {
        // However listening ends, the connection is closed before it is handed back: one whose
        // peer went away would fail the next lease's query, one still listening would hear for
        // nobody. Cancelled (shutdown), it is closed at once: that ends a LISTEN still waiting for
        // its answer as well as the wait for notifications.
        try await withTaskCancellationHandler {
            do {
                try await connection.listen(on: LedgerMigration.changeChannel) { notifications in
                    // Listening now: what others commit from here on is heard. Flush first, to
                    // forget what changed while nobody listened.
                    self.cache.setHearsWrites(true)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            // Not hearing any more: stop answering from the cache now, not once
                            // the connection is closed and handed back.
                            defer { self.cache.setHearsWrites(false) }
                            for try await notification in notifications {
                                self.heard(notification.payload)
                            }
                            throw ListenerStopped.streamEnded
                        }
                        group.addTask { try await self.heartbeat(connection) }
                        // Whichever ends first (both end only by throwing) ends the other.
                        defer { group.cancelAll() }
                        try await group.next()
                    }
                }
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } onCancel: {
            let _: EventLoopFuture<Void> = connection.close()
        }
    }

    /// Asks the server on `connection` until an answer does not come within ``heartbeatLimit``: then the cache
    /// stops at once and the connection is closed, which fails the unanswered query (a query is not cancellable).
    func heartbeat(_ connection: PostgresConnection) async throws {
        while true {
            try await Task.sleep(for: Self.heartbeatInterval)
            let missed = NIOLockedValueBox(false)
            let ticket = DeadlineTicker.shared.register(limit: Self.heartbeatLimit) {
                missed.withLockedValue { $0 = true }
                self.cache.setHearsWrites(false)
                self.logger.warning(
                    "ledger change listener: no answer to its heartbeat; snapshots are not cached until it is back")
                let _: EventLoopFuture<Void> = connection.close()
            }
            defer { DeadlineTicker.shared.unregister(ticket) }
            do {
                let rows = try await connection.query("SELECT 1", logger: self.logger)
                for try await _ in rows {}
            } catch {
                if missed.withLockedValue({ $0 }) { throw ListenerStopped.heartbeatMissed }
                throw error
            }
            if missed.withLockedValue({ $0 }) { throw ListenerStopped.heartbeatMissed }
        }
    }

    /// Why listening stopped without a driver error.
    enum ListenerStopped: Error {
        /// The server ended the notification stream.
        case streamEnded
        /// The connection did not answer `SELECT 1` in time.
        case heartbeatMissed
    }

    /// A change heard: the original transaction ids one statement wrote, separated by commas, or `*` for all.
    func heard(_ payload: String) {
        Self.heard(payload, by: self.cache)
    }

    static func heard(_ payload: String, by cache: LedgerSnapshotCache) {
        if payload == "*" {
            cache.flush()
        } else {
            cache.written(payload.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        }
    }
}
