/// The embedded ledger: one SQLite file (or memory), created on first use. SQLite is compiled into the binary
/// (SQLiteNIO's vendored amalgamation), so nothing needs installing; the ledger drives it through SQLite's C API
/// with its statements kept prepared.
///
/// One process owns the file, and holds `PATH.lock` while the ledger is open: a second ``SQLiteLedger`` on the same
/// file, in this process or another, is refused with ``LedgerError/Code/inUse`` — snapshots read before are kept in
/// memory (see `snapshotCacheBytes`) and dropped by the owner's writes only, so a second owner would answer stale.
/// Several service instances belong on ``PostgresLedger``. ``Ledger/shutdown()`` releases the file.
///
/// ```swift
/// let ledger = try await SQLiteLedger(path: "receiptkit.sqlite")
/// try await ledger.migrate()
/// ```
public struct SQLiteLedger: BackendLedger {
    let operations: LedgerOperations<SQLiteBackend>

    /// Opens (creating if needed) the database at `path`, or an in-memory one when `path` is `nil`.
    /// - Throws: ``LedgerError/Code/inUse`` when another ledger owns the file; ``LedgerError/Code/unavailable`` when it
    ///   cannot be opened.
    /// - Parameters:
    ///   - path: The database file; its directory must exist. The ledger holds `PATH.lock` until it is shut down.
    ///   - readers: Reader connections for concurrent queries (file databases only).
    ///   - snapshotCacheBytes: The most memory snapshots read before may hold (16 MiB by default; 0 reads every
    ///     snapshot from the file). Every write through this ledger drops the snapshots it touches, so the cache
    ///     assumes this process owns the file.
    public init(
        path: String?,
        readers: Int = 2,
        snapshotCacheBytes: Int = 16 << 20
    ) async throws(LedgerError) {
        do {
            let backend = try await SQLiteBackend.open(path: path, readers: max(1, min(readers, 16)))
            self.operations = LedgerOperations(backend: backend, snapshotCacheBytes: snapshotCacheBytes)
        } catch let error as LedgerError where error.code == .inUse {
            throw error
        } catch {
            // Whatever failed, unavailable (a file that is not a database or is read-only fails the writer's first
            // settings as a statement would), naming the file.
            let reason = (error as? LedgerError)?.reason ?? "\(error)"
            throw LedgerError(.unavailable, "cannot open SQLite database \(path ?? ":memory:"): \(reason)")
        }
    }

    /// SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound database, else one line per problem found.
    ///
    /// Run it after a crash or a restore; it reads the whole file, so not on a request path.
    public func integrityCheck() async throws(LedgerError) -> [String] {
        let backend = self.operations.backend
        do {
            let rows = try await backend.read { session in
                try await session.run(SQLStatement(sql: "PRAGMA integrity_check", binds: []))
            }
            return rows.compactMap { row in
                guard case .text(let line)? = row.first else { return nil }
                return line
            }
        } catch {
            throw backend.ledgerError(error)
        }
    }
}
