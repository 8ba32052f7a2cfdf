import NIOConcurrencyHelpers
import NIOPosix

/// The ledger's SQLite reader connections and the threads that run them: one thread per connection, so a statement
/// that reaches a thread always finds a connection free, and one hop to that thread and back per statement.
struct SQLiteReaders: Sendable {
    private let threadPool: NIOThreadPool
    private let idle: NIOLockedValueBox<[SQLitePreparedConnection]>
    private let isOpen = NIOLockedValueBox(true)

    /// Opens `count` readers of `path`.
    static func open(path: String, count: Int) async throws -> SQLiteReaders {
        let pool = NIOThreadPool(numberOfThreads: count)
        pool.start()
        do {
            let connections = try await pool.runToCompletion {
                var opened: [SQLitePreparedConnection] = []
                do {
                    for _ in 0..<count {
                        opened.append(try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64))
                    }
                } catch {
                    for connection in opened { connection.close() }
                    throw error
                }
                return opened
            }
            return SQLiteReaders(threadPool: pool, idle: NIOLockedValueBox(connections))
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
    }

    /// Runs `statement` on a reader thread.
    func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
        try await self.withConnection { try $0.run(statement) }
    }

    /// Runs `first`, then the statements `next` makes of its rows, on one reader in one hop to its thread (a
    /// customer's lookup: its ids, then their rows), and returns the rows of each in order. Each statement sees
    /// committed data, as when run one by one.
    func run(
        _ first: SQLStatement, then next: @escaping @Sendable ([[SQLValue]]) throws -> [SQLStatement]
    ) async throws -> [[[SQLValue]]] {
        try await self.withConnection { connection in
            var results = [try connection.run(first)]
            for statement in try next(results[0]) { results.append(try connection.run(statement)) }
            return results
        }
    }

    /// `body` with a free reader, on its thread.
    private func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (SQLitePreparedConnection) throws -> T
    ) async throws -> T {
        try await self.threadPool.runToCompletion {
            guard let connection = self.idle.withLockedValue({ $0.popLast() }) else {
                // Not reached: the pool runs no more statements at once than there are connections.
                throw LedgerError(.unavailable, "SQLite: no reader free")
            }
            defer { self.idle.withLockedValue { $0.append(connection) } }
            return try body(connection)
        }
    }

    /// Stops the threads once the statements running finish (statements still queued fail as unavailable), then
    /// closes every connection. Only the first call closes: a second returns at once.
    func shutdown() async {
        guard self.isOpen.withLockedValue({ open in defer { open = false }; return open }) else { return }
        try? await self.threadPool.shutdownGracefully()
        self.idle.withLockedValue { connections in
            for connection in connections { connection.close() }
            connections = []
        }
    }
}
