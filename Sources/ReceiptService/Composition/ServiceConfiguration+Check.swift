import AppStoreServerAPI
public import ReceiptLedger
import ServiceLifecycle

extension ServiceConfiguration {
    /// Everything `buildApplication(configuration:)` does before it serves, and no more: every source read and
    /// checked, the anchors and App Store Server API keys loaded, the database opened and asked its schema version
    /// (PostgreSQL's pool run for that long), then closed. Nothing is migrated or written.
    /// - Throws: ``ServiceStartupError`` as ``buildApplication(configuration:)`` would, and
    ///   ``ServiceStartupError/Code/databaseUnavailable`` when the database does not answer.
    public func check() async throws(ServiceStartupError) -> ServiceCheck {
        let (settings, unknownVariables) = try self.settings()
        let accepted = try self.accepted(settings)
        let clients = try ServiceComponents.apiClients(for: accepted, transport: AsyncHTTPTransport(), now: self.now)
        let opened = try await OpenedLedger.open(
            settings.database, snapshotCacheBytes: 0, leaseLimit: self.databaseLeaseLimit, logger: self.logger)
        let version = await opened.using { ledger throws(LedgerError) in try await ledger.schemaVersion() }
        let schemaVersion: Int
        switch version {
        case .success(let found): schemaVersion = found
        case .failure(let error):
            throw ServiceStartupError(.databaseUnavailable, "database \(opened.location): \(error.reason)")
        }
        return ServiceCheck(
            settings: settings, accepted: accepted, clients: clients, database: opened.location,
            schemaVersion: schemaVersion, unknownVariables: unknownVariables)
    }

    /// `receiptkit serve --migrate`: every source read and checked as for serving, the database opened and migrated
    /// to this build's schema version, then closed — without serving. For a deployment whose service role may not
    /// change the schema (`migrate_on_start` false): an owner role runs this before the new version starts.
    /// - Returns: The database (without its password), the schema version found and the one it is at now.
    /// - Throws: ``ServiceStartupError`` as ``buildApplication(configuration:)`` would, and
    ///   ``ServiceStartupError/Code/databaseUnavailable`` when the database does not answer or refuses the migration
    ///   (a newer schema than this build's, a role without the rights).
    public func migrateLedger() async throws(ServiceStartupError) -> (database: String, from: Int, to: Int) {
        let (settings, _) = try self.settings()
        let opened = try await OpenedLedger.open(
            settings.database, snapshotCacheBytes: 0, leaseLimit: self.databaseLeaseLimit, logger: self.logger)
        let versions = await opened.using { ledger throws(LedgerError) in
            let before = try await ledger.schemaVersion()
            try await ledger.migrate()
            return (from: before, to: try await ledger.schemaVersion())
        }
        switch versions {
        case .success(let versions): return (opened.location.description, versions.from, versions.to)
        case .failure(let error):
            throw ServiceStartupError(.databaseUnavailable, "database \(opened.location): \(error.reason)")
        }
    }
}

extension ServiceConfiguration {
    /// What `receiptkit ledger import` works with: the ledger the settings name — migrated first when
    /// `migrate_on_start` is true, otherwise required at this build's schema version, as serving would — and what
    /// the service accepts (anchors, Xcode receipts, allowed apps, decoding limits), so that an import records
    /// exactly what serving would. PostgreSQL's pool runs for as long as `body` does; the ledger is closed after.
    /// - Throws: ``ServiceStartupError`` as ``buildApplication(configuration:)`` would before it serves.
    public func withLedger<T: Sendable>(
        snapshotCacheBytes: Int = 0,
        _ body: @Sendable (any Ledger, VerifyReceiptConfiguration) async -> T
    ) async throws(ServiceStartupError) -> T {
        let (settings, _) = try self.settings()
        let accepted = try self.accepted(settings)
        let opened = try await OpenedLedger.open(
            settings.database, snapshotCacheBytes: snapshotCacheBytes, leaseLimit: self.databaseLeaseLimit,
            logger: self.logger)
        let location = opened.location
        let outcome = await opened.using { ledger throws(LedgerError) -> Result<T, ServiceStartupError> in
            let version = try await OpenedLedger.prepareSchema(
                of: ledger, migrates: settings.migratesOnStart, location: location.description)
            if case .failure(let problem) = version { return .failure(problem) }
            return .success(await body(ledger, accepted))
        }
        switch outcome {
        case .success(.success(let value)): return value
        case .success(.failure(let error)): throw error
        case .failure(let error): throw ServiceStartupError(.databaseUnavailable, "database \(location): \(error.reason)")
        }
    }
}
