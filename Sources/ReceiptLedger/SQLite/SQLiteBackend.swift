import NIOConcurrencyHelpers
import NIOPosix
import _ReceiptKitShared

/// SQLite compiled in (SQLiteNIO's vendored amalgamation), on ``SQLitePreparedConnection``s: one writer on a thread of
/// its own, whose transactions take turns on a one-permit `AsyncSemaphore`, and ``SQLiteReaders`` that see only
/// committed data (WAL).
struct SQLiteBackend: SQLBackend {
    let writer: SQLitePreparedConnection
    /// The writer's thread.
    let writerThread: NIOThreadPool
    /// `nil` in memory.
    let readers: SQLiteReaders?
    let writeTurn = AsyncSemaphore(permits: 1)
    private let isOpen = NIOLockedValueBox(true)
    /// The file's owner lock; `nil` in memory.
    let owner: SQLiteOwnerLock?

    var dialect: SQLDialect { .sqlite }
    var seesEveryWrite: Bool { true }

    /// The most statements the writer keeps prepared: its multi-row upserts have a text per row count.
    static let writerStatements = 256

    static func open(path: String?, readers readerCount: Int) async throws -> SQLiteBackend {
        // The lock first: a second owner is refused before it touches the file.
        let owner = try path.map { path throws(LedgerError) in try SQLiteOwnerLock.acquire(path: path) }
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        var opened: SQLitePreparedConnection?
        do {
            let writer = try await thread.runToCompletion {
                let writer = try SQLitePreparedConnection(
                    path: path, readOnly: false, maximumStatements: Self.writerStatements)
                do {
                    // The writer's own costs (the ledger's Measurements, `perf` of an import): a statement journal
                    // kept in memory instead of a temporary file (a multi-row upsert needs one); 64 MiB of page cache
                    // (SQLite's default of 2 MiB read index pages back from the file in every batch); the WAL
                    // checkpointed every 10,000 pages (about 40 MiB) rather than 1,000, so that a page written by
                    // many batches is copied to the database once per checkpoint. A crash loses nothing committed:
                    // the WAL is replayed.
                    var settings = ["temp_store = MEMORY", "cache_size = -65536", "wal_autocheckpoint = 10000"]
                    if path != nil {
                        // WAL: readers never block the writer and never see its uncommitted rows. FULL: a commit is
                        // on disk (the WAL fsynced) before it returns, so what the service acknowledged survives power
                        // loss and an OS crash; under NORMAL such commits may roll back
                        // (sqlite.org/pragma.html#pragma_synchronous), and Apple never resends a notification
                        // answered 200.
                        settings += ["journal_mode = WAL", "synchronous = FULL"]
                    }
                    for setting in settings {
                        _ = try writer.run(SQLStatement(sql: "PRAGMA \(setting)", binds: []))
                    }
                } catch {
                    writer.close()
                    throw error
                }
                return writer
            }
            opened = writer
            var readers: SQLiteReaders?
            if let path { readers = try await SQLiteReaders.open(path: path, count: readerCount) }
            return SQLiteBackend(writer: writer, writerThread: thread, readers: readers, owner: owner)
        } catch {
            // The thread stopped first, so that nothing runs on the writer it closes.
            try? await thread.shutdownGracefully()
            opened?.close()
            owner?.release()
            throw error
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        guard let readers = self.readers else {
            // In memory there is one connection: reads take the writer's turn so they never see a write half done.
            return try await self.withWriteTurn { try await body(self.writerSession) }
        }
        return try await body(ReaderSession(readers: readers))
    }

    private var writerSession: WriterSession { WriterSession(connection: self.writer, thread: self.writerThread) }

    func transaction<T: Sendable>(
        exclusive: Bool,
        _ body: @escaping @Sendable (any SQLSession) async throws -> T
    ) async throws -> T {
        try await self.withWriteTurn {
            let session = self.writerSession
            // IMMEDIATE takes SQLite's write lock at once, so other processes on the same file are serialised too.
            // A transaction left open (its COMMIT and ROLLBACK both failed) is rolled back first, in the same hop.
            let writer = self.writer
            _ = try await self.writerThread.runToCompletion {
                if writer.isInTransaction { _ = try writer.run(SQLStatement(sql: "ROLLBACK", binds: [])) }
                return try writer.run(SQLStatement(sql: "BEGIN IMMEDIATE", binds: []))
            }
            do {
                let result = try await body(session)
                _ = try await session.run(SQLStatement(sql: "COMMIT", binds: []))
                return result
            } catch {
                _ = try? await session.run(SQLStatement(sql: "ROLLBACK", binds: []))
                throw error
            }
        }
    }

    /// Runs `body` while holding the writer connection; a task cancelled while waiting throws.
    private func withWriteTurn<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let result = try await self.writeTurn.withPermit(body) else { throw CancellationError() }
        return result
    }

    func ledgerError(_ error: any Error) -> LedgerError {
        if let error = error as? LedgerError { return error }
        return LedgerError(.unavailable, "SQLite: \(error)")
    }

    /// Closes the connections once the statements running finish (statements still queued fail as unavailable); only
    /// the first call does, and a second made meanwhile returns without waiting for it.
    func shutdown() async {
        guard self.isOpen.withLockedValue({ open in defer { open = false }; return open }) else { return }
        await self.readers?.shutdown()
        try? await self.writerThread.shutdownGracefully()
        self.writer.close()
        self.owner?.release()
    }

    /// A read on ``SQLiteReaders``: each statement on whichever reader is free.
    struct ReaderSession: SQLSession {
        let readers: SQLiteReaders

        func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
            try await self.readers.run(statement)
        }

        func run(
            _ first: SQLStatement, then next: @escaping @Sendable ([[SQLValue]]) throws -> [SQLStatement]
        ) async throws -> [[[SQLValue]]] {
            try await self.readers.run(first, then: next)
        }
    }

    /// The writer's statements, each on its thread.
    struct WriterSession: SQLSession {
        let connection: SQLitePreparedConnection
        let thread: NIOThreadPool

        func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
            try await self.thread.runToCompletion { try self.connection.run(statement) }
        }
    }
}
