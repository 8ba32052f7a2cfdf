import Logging
import ReceiptLedger
import ServiceLifecycle

/// The ledger a settings' `database` names, opened: what ``buildApplication(configuration:)`` serves from and
/// `serve --check-config` checks.
struct OpenedLedger: Sendable {
    let ledger: any Ledger
    let location: LedgerLocation
    /// What must run beside the ledger for it to work (PostgreSQL's connection pool).
    let services: [any Service]

    /// Opens `database`; its errors are the service's start-up errors, an SQLite file another process owns named as
    /// such. A service that serves keeps that many PostgreSQL connections open (`keepsConnectionsOpen`, see
    /// `PostgresLedger.keepingConnectionsOpen(_:)`); a check or a migration (`nil`) opens only what it uses.
    static func open(
        _ database: String, snapshotCacheBytes: Int, keepsConnectionsOpen: Int? = nil,
        leaseLimit: Duration? = nil, logger: Logger
    ) async throws(ServiceStartupError) -> OpenedLedger {
        let location: LedgerLocation
        do {
            location = try LedgerLocation(database)
        } catch {
            throw ServiceStartupError(.invalidDatabase, "database: \(error.reason)")
        }
        do throws(LedgerError) {
            switch location {
            case .sqlite(let path):
                let ledger = try await SQLiteLedger(path: path, snapshotCacheBytes: snapshotCacheBytes)
                return OpenedLedger(ledger: ledger, location: location, services: [])
            case .postgres(let url):
                let ledger = try PostgresLedger(
                    url: url, snapshotCacheBytes: snapshotCacheBytes, keepsConnectionsOpen: keepsConnectionsOpen != nil,
                    maximumConnections: keepsConnectionsOpen,
                    answeringLeaseLimit: leaseLimit, logger: logger)
                return OpenedLedger(ledger: ledger, location: location, services: [ledger])
            }
        } catch {
            // Another process owning the SQLite file is said as such (its reason names the owner's pid).
            if error.code == .inUse { throw ServiceStartupError(.databaseInUse, error.reason) }
            throw ServiceStartupError(.databaseUnavailable, "database \(location): \(error.reason)")
        }
    }

    /// Migrates the ledger when `migrates` (`migrate_on_start`), then reads its schema version: what serving and an
    /// import do first. Returns the version, or the start-up error when it is not this build's.
    static func prepareSchema(
        of ledger: any Ledger, migrates: Bool, location: String
    ) async throws(LedgerError) -> Result<Int, ServiceStartupError> {
        if migrates { try await ledger.migrate() }
        let version = try await ledger.schemaVersion()
        let latest = LedgerSchemaVersion.latest
        guard version == latest else {
            // Only without the migration: a newer schema stops migrate() itself.
            return .failure(ServiceStartupError(
                .schemaNotCurrent,
                version > latest
                    ? "database \(location): schema version \(version) is newer than this build's \(latest): run a "
                        + "newer build (or restore the database this one wrote)"
                    : "database \(location): schema version \(version), this build's is \(latest); "
                        + "migrate_on_start is false: run receiptkit serve --migrate (as a role that may change the "
                        + "schema; a role that cannot see the schema reads version 0)"))
        }
        return .success(version)
    }

    /// Runs `body` on the ledger with its ``services`` running beside it (PostgreSQL's pool), then shuts the ledger
    /// down: what `serve --check-config` and `serve --migrate` do without serving.
    func using<T: Sendable>(
        _ body: @Sendable (any Ledger) async throws(LedgerError) -> T
    ) async -> Result<T, LedgerError> {
        let ledger = self.ledger
        let result: Result<T, LedgerError> = await withTaskGroup(of: Void.self) { group in
            for service in self.services {
                group.addTask { try? await service.run() }
            }
            defer { group.cancelAll() }
            do throws(LedgerError) {
                return .success(try await body(ledger))
            } catch {
                return .failure(error)
            }
        }
        await ledger.shutdown()
        return result
    }
}
