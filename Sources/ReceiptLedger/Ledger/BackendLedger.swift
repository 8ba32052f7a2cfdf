/// A ``Ledger`` that is ``LedgerOperations`` over one ``SQLBackend``: ``SQLiteLedger`` and ``PostgresLedger``
/// differ only in how they open their backend, and every ledger call (closing included) is forwarded here once.
protocol BackendLedger: Ledger {
    associatedtype Backend: SQLBackend
    var operations: LedgerOperations<Backend> { get }
}

extension BackendLedger {
    public func migrate() async throws(LedgerError) { try await self.operations.migrate() }
    public func schemaVersion() async throws(LedgerError) -> Int { try await self.operations.schemaVersion() }
    @discardableResult
    public func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary {
        try await self.operations.record(receipt)
    }
    public func recordAndSnapshot(_ receipt: LedgerReceipt) async throws(LedgerError)
        -> (summary: LedgerWriteSummary, snapshot: LedgerSnapshot)
    {
        try await self.operations.recordAndSnapshot(receipt)
    }
    public func receipt(hash: String) async throws(LedgerError) -> [UInt8]? {
        try await self.operations.receipt(hash: hash)
    }
    public func recordedReceipts(among hashes: [String]) async throws(LedgerError) -> Set<String> {
        try await self.operations.recordedReceipts(among: hashes)
    }
    @discardableResult
    public func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool {
        try await self.operations.recordNotification(notification)
    }
    public func apply(_ update: LedgerUpdate) async throws(LedgerError) {
        try await self.operations.apply(update)
    }
    public func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot {
        try await self.operations.snapshot(matching: query)
    }
    public func signedTransaction(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerSignedTransaction? {
        try await self.operations.signedTransaction(
            environment: environment, bundleIdentifier: bundleIdentifier, transactionIdentifier: transactionIdentifier)
    }
    public func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        try await self.operations.customer(
            environment: environment, bundleIdentifier: bundleIdentifier, transactionIdentifier: transactionIdentifier)
    }
    public func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        try await self.operations.customer(
            environment: environment, bundleIdentifier: bundleIdentifier, appAccountToken: appAccountToken)
    }
    public func notifications(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String], limit: Int
    ) async throws(LedgerError) -> [LedgerNotificationEntry] {
        try await self.operations.notifications(
            environment: environment, bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifiers: originalTransactionIdentifiers, limit: limit)
    }
    public func originalTransactionIdentifiers(
        environment: AppStoreEnvironment, bundleIdentifier: String, after: String?, limit: Int
    ) async throws(LedgerError) -> [String] {
        try await self.operations.originalTransactionIdentifiers(
            environment: environment, bundleIdentifier: bundleIdentifier, after: after, limit: limit)
    }
    public func notificationBackfillState(
        environment: AppStoreEnvironment, bundleIdentifier: String
    ) async throws(LedgerError) -> LedgerBackfillState {
        try await self.operations.notificationBackfillState(environment: environment, bundleIdentifier: bundleIdentifier)
    }
    public func startNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError) {
        try await self.operations.startNotificationBackfill(
            environment: environment, bundleIdentifier: bundleIdentifier,
            coveredUntilMilliseconds: coveredUntilMilliseconds, atMilliseconds: atMilliseconds)
    }
    public func recordNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError) {
        try await self.operations.recordNotificationBackfill(
            environment: environment, bundleIdentifier: bundleIdentifier,
            coveredUntilMilliseconds: coveredUntilMilliseconds, atMilliseconds: atMilliseconds)
    }
    public func claimOutbox(_ claim: LedgerOutboxClaim) async throws(LedgerError) -> [LedgerOutboxEntry] {
        try await self.operations.claimOutbox(claim)
    }
    @discardableResult
    public func settleOutbox(_ settlements: [LedgerOutboxSettlement]) async throws(LedgerError) -> Int {
        try await self.operations.settleOutbox(settlements)
    }
    public func outboxEntries(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> [LedgerOutboxEntry] {
        try await self.operations.outboxEntries(filter)
    }
    public func retryOutbox(
        _ filter: LedgerOutboxFilter, atMilliseconds: Int64, deadlineMilliseconds: Int64
    ) async throws(LedgerError) -> Int {
        try await self.operations.retryOutbox(filter, atMilliseconds: atMilliseconds, deadlineMilliseconds: deadlineMilliseconds)
    }
    public func dropOutbox(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> Int {
        try await self.operations.dropOutbox(filter)
    }
    public func outboxTotals() async throws(LedgerError) -> [LedgerOutboxTotals] {
        try await self.operations.outboxTotals()
    }
    public func ping() async throws(LedgerError) { try await self.operations.ping() }
    public func shutdown() async { await self.operations.backend.shutdown() }
    public var cacheStatistics: LedgerCacheStatistics? { self.operations.snapshots.statistics }
    public var writeStatistics: LedgerWriteStatistics? { self.operations.writes.statistics }
}
