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
        try await self.threadPool.runToCompletion {
            guard let connection = self.idle.withLockedValue({ $0.popLast() }) else {
                // Not reached: the pool runs no more statements at once than there are connections.
                throw LedgerError(.unavailable, "SQLite: no reader free")
            }
            defer { self.idle.withLockedValue { $0.append(connection) } }
            return try connection.run(statement)
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
