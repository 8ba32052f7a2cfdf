public import ReceiptLedger

/// A ledger that forwards the calls every ledger must implement to another, and leaves the rest (such as
/// `recordedReceipts(among:)`) to the protocol's defaults: tests compare a default with a built-in ledger's own, and
/// make writes fail on cue with `beforeRecord`.
public struct ForwardingLedger: Ledger {
    private let inner: any Ledger
    private let beforeRecord: @Sendable (LedgerReceipt) throws(LedgerError) -> Void

    public init(_ inner: any Ledger, beforeRecord: @escaping @Sendable (LedgerReceipt) throws(LedgerError) -> Void = { _ in }) {
        self.inner = inner
        self.beforeRecord = beforeRecord
    }

    public func migrate() async throws(LedgerError) { try await self.inner.migrate() }
    public func schemaVersion() async throws(LedgerError) -> Int { try await self.inner.schemaVersion() }
    public func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary {
        try self.beforeRecord(receipt)
        return try await self.inner.record(receipt)
    }
    public func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot {
        try await self.inner.snapshot(matching: query)
    }
    public func receipt(hash: String) async throws(LedgerError) -> [UInt8]? { try await self.inner.receipt(hash: hash) }
    public func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool {
        try await self.inner.recordNotification(notification)
    }
    public func apply(_ update: LedgerUpdate) async throws(LedgerError) { try await self.inner.apply(update) }
    public func signedTransaction(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerSignedTransaction? {
        try await self.inner.signedTransaction(
            environment: environment, bundleIdentifier: bundleIdentifier, transactionIdentifier: transactionIdentifier)
    }
    public func notifications(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String], limit: Int
    ) async throws(LedgerError) -> [LedgerNotificationEntry] {
        try await self.inner.notifications(
            environment: environment, bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifiers: originalTransactionIdentifiers, limit: limit)
    }
    public func originalTransactionIdentifiers(
        environment: AppStoreEnvironment, bundleIdentifier: String, after: String?, limit: Int
    ) async throws(LedgerError) -> [String] {
        try await self.inner.originalTransactionIdentifiers(
            environment: environment, bundleIdentifier: bundleIdentifier, after: after, limit: limit)
    }
    public func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        try await self.inner.customer(
            environment: environment, bundleIdentifier: bundleIdentifier, transactionIdentifier: transactionIdentifier)
    }
    public func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        try await self.inner.customer(
            environment: environment, bundleIdentifier: bundleIdentifier, appAccountToken: appAccountToken)
    }
    public func ping() async throws(LedgerError) { try await self.inner.ping() }
    public func shutdown() async { await self.inner.shutdown() }
}
