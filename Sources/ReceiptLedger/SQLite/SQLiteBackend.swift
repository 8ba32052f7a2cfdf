import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteNIO
import _ReceiptKitShared

/// SQLite compiled in: one writer connection through SQLiteNIO (statements on a thread pool) whose transactions take
/// turns on a one-permit `AsyncSemaphore`, and ``SQLiteReaders`` that see only committed data (WAL) and keep their
/// statements prepared.
struct SQLiteBackend: SQLBackend {
    let writer: SQLiteConnection
    /// `nil` in memory.
    let readers: SQLiteReaders?
    let writeTurn = AsyncSemaphore(permits: 1)
    let threadPool: NIOThreadPool
    /// The file's owner lock; `nil` in memory.
    let owner: SQLiteOwnerLock?

    var dialect: SQLDialect { .sqlite }
    var seesEveryWrite: Bool { true }

    static func open(path: String?, readers readerCount: Int, logger: Logger) async throws -> SQLiteBackend {
        // The lock first: a second owner is refused before it touches the file.
        let owner = try path.map { path throws(LedgerError) in try SQLiteOwnerLock.acquire(path: path) }
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        do {
            let storage: SQLiteConnection.Storage = path.map { .file(path: $0) } ?? .memory
            let writer = try await SQLiteConnection.open(storage: storage, threadPool: pool, logger: logger, on: eventLoop)
            // Another process holding the file's lock makes a statement fail as busy (retryable) after 5 s,
            // instead of SQLiteNIO's default of waiting forever on a pool thread.
            _ = try await writer.query("PRAGMA busy_timeout = 5000", [])
            // The writer's own costs (the ledger's Measurements, `perf` of an import): a statement journal kept in
            // memory instead of a temporary file (a multi-row upsert needs one); 64 MiB of page cache (SQLite's
            // default of 2 MiB read index pages back from the file in every batch); the WAL checkpointed every
            // 10,000 pages (about 40 MiB) rather than 1,000, so that a page written by many batches is copied to the
            // database once per checkpoint. A crash loses nothing committed: the WAL is replayed.
            _ = try await writer.query("PRAGMA temp_store = MEMORY", [])
            _ = try await writer.query("PRAGMA cache_size = -65536", [])
            _ = try await writer.query("PRAGMA wal_autocheckpoint = 10000", [])
            var readers: SQLiteReaders?
            if let path {
                // WAL: readers never block the writer and never see its uncommitted rows. FULL: a commit is on disk
                // (the WAL fsynced) before it returns, so what the service acknowledged survives power loss and an
                // OS crash; under NORMAL such commits may roll back (sqlite.org/pragma.html#pragma_synchronous),
                // and Apple never resends a notification answered 200.
                _ = try await writer.query("PRAGMA journal_mode = WAL", [])
                _ = try await writer.query("PRAGMA synchronous = FULL", [])
                readers = try await SQLiteReaders.open(path: path, count: readerCount)
            }
            return SQLiteBackend(writer: writer, readers: readers, threadPool: pool, owner: owner)
        } catch {
            try? await pool.shutdownGracefully()
            owner?.release()
            throw error
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        guard let readers = self.readers else {
            // In memory there is one connection: reads take the writer's turn so they never see a write half done.
            return try await self.withWriteTurn { try await body(Session(connection: self.writer)) }
        }
        return try await body(ReaderSession(readers: readers))
    }

    func transaction<T: Sendable>(
        exclusive: Bool,
        _ body: @escaping @Sendable (any SQLSession) async throws -> T
    ) async throws -> T {
        try await self.withWriteTurn {
            let session = Session(connection: self.writer)
            // IMMEDIATE takes SQLite's write lock at once, so other processes on the same file are serialised too.
            _ = try await session.run(SQLStatement(sql: "BEGIN IMMEDIATE", binds: []))
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
        guard let error = error as? SQLiteError else {
            return LedgerError(.unavailable, "SQLite: \(error)")
        }
        switch error.reason {
        case .busy, .locked, .ioError, .full, .cantOpen, .noMemory, .interrupt:
            return LedgerError(.unavailable, "SQLite: \(error.message)")
        default:
            return LedgerError(.statementFailed, "SQLite: \(error.message)")
        }
    }

    func shutdown() async {
        await self.readers?.shutdown()
        try? await self.writer.close()
        try? await self.threadPool.shutdownGracefully()
        self.owner?.release()
    }

    /// A read on ``SQLiteReaders``: each statement on whichever reader is free.
    struct ReaderSession: SQLSession {
        let readers: SQLiteReaders

        func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
            try await self.readers.run(statement)
        }
    }

    struct Session: SQLSession {
        let connection: SQLiteConnection

        func run(_ statement: SQLStatement) async throws -> [[SQLValue]] {
            let binds = try statement.binds.map(Self.sqliteData)
            let rows = NIOLockedValueBox<[[SQLValue]]>([])
            try await self.connection.query(statement.sql, binds) { row in
                let values = row.columns.map { Self.value($0.data) }
                rows.withLockedValue { $0.append(values) }
            }
            return rows.withLockedValue { $0 }
        }

        static func sqliteData(_ value: SQLValue) throws -> SQLiteData {
            switch value {
            case .text(let text): .text(text)
            case .integer(let integer): .integer(Int(truncatingIfNeeded: integer))
            case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
            case .null: .null
            case .texts: throw LedgerError(.statementFailed, "SQLite binds no list (a PostgreSQL statement)")
            }
        }

        static func value(_ data: SQLiteData) -> SQLValue {
            switch data {
            case .text(let text): .text(text)
            case .integer(let integer): .integer(Int64(integer))
            case .float(let double): .text(String(double))
            case .blob(let buffer): .blob(Array(buffer.readableBytesView))
            case .null: .null
            }
        }
    }
}
