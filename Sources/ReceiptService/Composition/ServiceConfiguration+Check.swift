import AppStoreServerAPI
import ReceiptLedger
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
        let opened = try await OpenedLedger.open(settings.database, snapshotCacheBytes: 0, logger: self.logger)
        let ledger = opened.ledger
        let version: Result<Int, LedgerError> = await withTaskGroup(of: Result<Int, LedgerError>?.self) { group in
            for service in opened.services {
                group.addTask {
                    try? await service.run()
                    return nil
                }
            }
            defer { group.cancelAll() }
            do throws(LedgerError) {
                return .success(try await ledger.schemaVersion())
            } catch {
                return .failure(error)
            }
        }
        await ledger.shutdown()
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
}
