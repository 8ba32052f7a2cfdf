/// Where a verifyReceipt service remembers what it has seen: receipts, the transactions they carry, and renewal
/// information — the state Apple's endpoint kept and a stateless validator cannot — whatever taught it: receipts,
/// server notifications, the App Store Server API (``LedgerSource``).
///
/// Two implementations share one schema and one test suite: ``SQLiteLedger`` (embedded, one process) and
/// ``PostgresLedger`` (several service instances sharing one database).
///
/// Every write is idempotent: recording the same receipt twice changes nothing, and concurrent writes of receipts
/// that share transactions never lose or duplicate one. A transaction seen in several receipts keeps the version
/// from the newest receipt (by creation date, then by receipt hash, so the outcome does not depend on the order in
/// which the receipts arrive); signed data competes by its signing date. Which receipt is the newest for each
/// original transaction id is kept apart (``LedgerOriginalTransaction``), so signed data never hides it.
///
/// ```swift
/// let ledger = try await SQLiteLedger(path: "receiptkit.sqlite")
/// try await ledger.migrate()
/// try await ledger.record(LedgerReceipt(result.receipt, bytes: bytes, environment: .production, seenAt: now))
/// let history = try await ledger.transactions(matching: LedgerQuery(receipt: result.receipt, environment: .production))
/// ```
public protocol Ledger: Sendable {
    /// Creates the schema or brings it to the newest version; safe to call on every start and from several
    /// instances at once.
    func migrate() async throws(LedgerError)

    /// The schema version the database is at (0 before the first migration). Reads only: a role without the right
    /// to change the schema may ask.
    func schemaVersion() async throws(LedgerError) -> Int

    /// Stores a validated receipt and upserts its transactions by transaction id, atomically.
    @discardableResult
    func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary

    /// Records `receipt` as ``record(_:)`` does and reads the snapshot of its original transaction ids
    /// (``snapshot(matching:)`` of `LedgerQuery(receipt:)`) — what `/verifyReceipt` does for every receipt. The
    /// built-in ledgers recognise a receipt recorded before and read its snapshot in one statement, without a write.
    func recordAndSnapshot(_ receipt: LedgerReceipt) async throws(LedgerError)
        -> (summary: LedgerWriteSummary, snapshot: LedgerSnapshot)

    /// The bytes of a stored receipt, by its ``LedgerReceipt/hash``.
    func receipt(hash: String) async throws(LedgerError) -> [UInt8]?

    /// Which of `hashes` (``LedgerReceipt/hash``) name receipts the ledger holds: what an import asks of a batch
    /// before it validates it, so that a receipt recorded before is skipped (one statement per 200 hashes in the
    /// built-in ledgers).
    func recordedReceipts(among hashes: [String]) async throws(LedgerError) -> Set<String>

    /// Records a verified server notification and applies what it carries (transaction, renewal information),
    /// atomically — unless its `notificationUUID` was recorded before, in which case nothing changes.
    /// - Returns: `true` when it was new and applied, `false` for a notification already recorded.
    @discardableResult
    func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool

    /// Applies transactions and renewal information learnt from App Store signed data — the App Store Server API,
    /// or anything else that is not a notification — atomically, and records a refresh time when the update says
    /// so. The same statements as ``recordNotification(_:)``'s, without its replay protection.
    func apply(_ update: LedgerUpdate) async throws(LedgerError)

    /// Every stored transaction of the query's app, environment and original transaction ids (newest first), their
    /// renewal information and original-transaction records (newest receipt, API refresh time), read together
    /// (one statement in the built-in ledgers).
    func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot

    /// A stored transaction by its environment, app and transaction id — its original transaction id, and the JWS
    /// its current version came in (the JWS is not part of ``snapshot(matching:)``, which `/verifyReceipt` reads on
    /// every request) — or `nil` when the ledger holds no such transaction. One primary-key lookup in the built-in
    /// ledgers.
    func signedTransaction(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerSignedTransaction?

    /// The customer of the app that `transactionIdentifier` — a transaction id or an original transaction id —
    /// belongs to (``LedgerCustomer``: the original transactions one receipt holds), with the JWS of every
    /// transaction and renewal information Apple signed; `nil` when the ledger holds no transaction of that id or
    /// original id. What the App Store Server API mirror answers customer-wide requests from.
    func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerCustomer?

    /// The customer of the app whose signed transactions carry `appAccountToken` (the UUID the app set at purchase;
    /// compared in lower case): their original transactions and those their newest receipts carry, read as
    /// ``customer(environment:bundleIdentifier:transactionIdentifier:)`` reads one; `nil` when no stored
    /// transaction carries it. Receipts carry no token: a customer known only from receipts is found by its ids.
    func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) async throws(LedgerError) -> LedgerCustomer?

    /// The newest `limit` server notifications the ledger recorded about any of `originalTransactionIdentifiers`
    /// of the app, newest signed first (a customer's timeline). Notifications recorded before schema version 9
    /// are not found: the ledger did not note which original transaction they were about.
    func notifications(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String], limit: Int
    ) async throws(LedgerError) -> [LedgerNotificationEntry]

    /// The app's original transaction ids greater than `after` (from the first when `nil`), ascending, at most
    /// `limit`: a walk over every customer of an app (`receiptkit simulate export --all`).
    func originalTransactionIdentifiers(
        environment: AppStoreEnvironment, bundleIdentifier: String, after: String?, limit: Int
    ) async throws(LedgerError) -> [String]

    /// Whether the database answers (a trivial query).
    func ping() async throws(LedgerError)

    /// Releases connections; the ledger cannot be used afterwards.
    func shutdown() async

    /// How the ledger's snapshot cache stands, or `nil` for a ledger without one (the default).
    var cacheStatistics: LedgerCacheStatistics? { get }

    /// How writes shared their transactions (group commit), or `nil` for a ledger that does not batch them (the
    /// default).
    var writeStatistics: LedgerWriteStatistics? { get }

    /// Whether several instances share this ledger, and coordinate their App Store Server API refreshes through it
    /// (``claimAPIRefresh(_:)``): `true` for PostgreSQL; `false` (the default) for a ledger one process owns, whose
    /// claims are always granted.
    var coordinatesAPIRefreshes: Bool { get }

    /// Claims the refresh of a customer for `claim.holder`, unless another instance holds it, the customer backs
    /// off after a failed refresh, or the app is paused (``pauseAPIApp(environment:bundleIdentifier:untilMilliseconds:)``)
    /// — atomically, among every instance sharing the ledger.
    func claimAPIRefresh(_ claim: LedgerAPIClaim) async throws(LedgerError) -> LedgerAPIClaim.Answer

    /// Ends a granted claim: the customer is free again, or, with `failedUntilMilliseconds`, backs off until then
    /// for every instance.
    func endAPIRefresh(_ claim: LedgerAPIClaim, failedUntilMilliseconds: Int64?) async throws(LedgerError)

    /// Pauses an app's refreshes for every instance until `untilMilliseconds` (a later pause already set stands).
    func pauseAPIApp(
        environment: AppStoreEnvironment, bundleIdentifier: String, untilMilliseconds: Int64
    ) async throws(LedgerError)

    /// Where the app's notification backfill stands: the end of its latest completed window (its cursor) and the
    /// newest notification recorded for it (one statement each in the built-in ledgers).
    func notificationBackfillState(
        environment: AppStoreEnvironment, bundleIdentifier: String
    ) async throws(LedgerError) -> LedgerBackfillState

    /// Records that a backfill window of the app ending at `coveredUntilMilliseconds` completed: the cursor moves
    /// there, unless it stands later already.
    func recordNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError)

    /// Sets the app's cursor to `coveredUntilMilliseconds` when it has none, without counting a window: where a
    /// first window that has not completed yet starts again (one that completes moves it on). A cursor already
    /// there is left alone.
    func startNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError)

    /// Takes (or renews) the lease on the app's backfill for `lease.holder`, unless another instance holds a live
    /// one — atomically, among every instance sharing the ledger.
    /// - Returns: Whether `lease.holder` holds it now.
    func leaseNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) -> Bool

    /// Ends a lease `lease.holder` holds (nothing when it holds none).
    func endNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError)

    /// Leases the due outbox entries of `claim.targets` that are first in their original transaction's order (by
    /// `signedDate`, then UUID) to `claim.holder`, oldest due first, at most `claim.limit`; each claimed attempt is
    /// counted. Atomic among every instance sharing the ledger: no entry is leased to two holders at once.
    /// - Returns: The entries claimed, in `signedDate` order.
    func claimOutbox(_ claim: LedgerOutboxClaim) async throws(LedgerError) -> [LedgerOutboxEntry]

    /// Ends claimed entries' attempts, atomically: delivered (deleted), due again later, or parked.
    /// - Returns: How many entries changed (one not: delivered already, or its lease lapsed and another holds it).
    @discardableResult
    func settleOutbox(_ settlements: [LedgerOutboxSettlement]) async throws(LedgerError) -> Int

    /// The outbox entries `filter` matches, oldest first.
    func outboxEntries(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> [LedgerOutboxEntry]

    /// Makes the entries `filter` matches pending and due at `atMilliseconds`, with a new deadline (an operator's
    /// retry of parked entries).
    /// - Returns: How many entries it changed.
    func retryOutbox(
        _ filter: LedgerOutboxFilter, atMilliseconds: Int64, deadlineMilliseconds: Int64
    ) async throws(LedgerError) -> Int

    /// Deletes the entries `filter` matches, unsent.
    /// - Returns: How many it deleted.
    func dropOutbox(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> Int

    /// Each target's pending and parked entries, and its oldest pending one (one statement in the built-in ledgers).
    func outboxTotals() async throws(LedgerError) -> [LedgerOutboxTotals]
}

extension Ledger {
    /// No snapshot cache.
    public var cacheStatistics: LedgerCacheStatistics? { nil }

    /// No group commit.
    public var writeStatistics: LedgerWriteStatistics? { nil }

    /// One process: nothing to coordinate.
    public var coordinatesAPIRefreshes: Bool { false }

    /// One process: every claim is granted (the bridge keeps its own in memory).
    public func claimAPIRefresh(_ claim: LedgerAPIClaim) async throws(LedgerError) -> LedgerAPIClaim.Answer { .granted }

    /// One process: nothing to end.
    public func endAPIRefresh(_ claim: LedgerAPIClaim, failedUntilMilliseconds: Int64?) async throws(LedgerError) {}

    /// One process: the bridge pauses the app in memory.
    public func pauseAPIApp(
        environment: AppStoreEnvironment, bundleIdentifier: String, untilMilliseconds: Int64
    ) async throws(LedgerError) {}

    /// One process: the lease is always this instance's.
    public func leaseNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) -> Bool { true }

    /// One process: nothing to end.
    public func endNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) {}

    /// Not supported by a ledger of your own unless it says otherwise: the notification backfill then fails each
    /// window (and says so in its log and metrics).
    public func notificationBackfillState(
        environment: AppStoreEnvironment, bundleIdentifier: String
    ) async throws(LedgerError) -> LedgerBackfillState {
        throw LedgerError(.statementFailed, "this ledger keeps no notification backfill cursor")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``notificationBackfillState(environment:bundleIdentifier:)``).
    public func startNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError) {
        throw LedgerError(.statementFailed, "this ledger keeps no notification backfill cursor")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``notificationBackfillState(environment:bundleIdentifier:)``).
    public func recordNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError) {
        throw LedgerError(.statementFailed, "this ledger keeps no notification backfill cursor")
    }

    /// Not supported by a ledger of your own unless it says otherwise: forwarding then fails each round (and says so
    /// in its log).
    public func claimOutbox(_ claim: LedgerOutboxClaim) async throws(LedgerError) -> [LedgerOutboxEntry] {
        throw LedgerError(.statementFailed, "this ledger keeps no notification outbox")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``claimOutbox(_:)``).
    @discardableResult
    public func settleOutbox(_ settlements: [LedgerOutboxSettlement]) async throws(LedgerError) -> Int {
        throw LedgerError(.statementFailed, "this ledger keeps no notification outbox")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``claimOutbox(_:)``).
    public func outboxEntries(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> [LedgerOutboxEntry] {
        throw LedgerError(.statementFailed, "this ledger keeps no notification outbox")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``claimOutbox(_:)``).
    public func retryOutbox(
        _ filter: LedgerOutboxFilter, atMilliseconds: Int64, deadlineMilliseconds: Int64
    ) async throws(LedgerError) -> Int {
        throw LedgerError(.statementFailed, "this ledger keeps no notification outbox")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``claimOutbox(_:)``).
    public func dropOutbox(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> Int {
        throw LedgerError(.statementFailed, "this ledger keeps no notification outbox")
    }

    /// Not supported by a ledger of your own unless it says otherwise (see ``claimOutbox(_:)``).
    public func outboxTotals() async throws(LedgerError) -> [LedgerOutboxTotals] {
        throw LedgerError(.statementFailed, "this ledger keeps no notification outbox")
    }

    /// Not supported by a ledger of your own unless it says otherwise: the entitlements endpoint then answers 500
    /// (`ledger_error`).
    public func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        throw LedgerError(.statementFailed, "this ledger does not look customers up by app account token")
    }

    /// Not supported by a ledger of your own unless it says otherwise: the App Store Server API mirror's customer-wide
    /// endpoints then answer Apple's internal error (500, 5000000).
    public func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        throw LedgerError(.statementFailed, "this ledger does not look customers up")
    }

    /// Not supported by a ledger of your own unless it says otherwise: the timeline page then answers 500.
    public func notifications(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String], limit: Int
    ) async throws(LedgerError) -> [LedgerNotificationEntry] {
        throw LedgerError(.statementFailed, "this ledger does not look notifications up")
    }

    /// Not supported by a ledger of your own unless it says otherwise: `simulate export --all` then fails.
    public func originalTransactionIdentifiers(
        environment: AppStoreEnvironment, bundleIdentifier: String, after: String?, limit: Int
    ) async throws(LedgerError) -> [String] {
        throw LedgerError(.statementFailed, "this ledger does not list original transactions")
    }

    /// Not supported by a ledger of your own unless it says otherwise: the App Store Server API mirror then answers
    /// Apple's retryable internal error.
    public func signedTransaction(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerSignedTransaction? {
        throw LedgerError(.statementFailed, "this ledger does not look transactions up by id")
    }

    /// ``receipt(hash:)`` for each hash.
    public func recordedReceipts(among hashes: [String]) async throws(LedgerError) -> Set<String> {
        var recorded = Set<String>()
        for hash in hashes where try await self.receipt(hash: hash) != nil { recorded.insert(hash) }
        return recorded
    }

    /// ``record(_:)``, then ``snapshot(matching:)``.
    public func recordAndSnapshot(_ receipt: LedgerReceipt) async throws(LedgerError)
        -> (summary: LedgerWriteSummary, snapshot: LedgerSnapshot)
    {
        let summary = try await self.record(receipt)
        return (summary, try await self.snapshot(matching: LedgerQuery(receipt: receipt)))
    }

    /// The snapshot's transactions, newest first.
    public func transactions(matching query: LedgerQuery) async throws(LedgerError) -> [LedgerTransaction] {
        try await self.snapshot(matching: query).transactions
    }

    /// The snapshot's renewal information.
    public func renewalInfo(matching query: LedgerQuery) async throws(LedgerError) -> [LedgerRenewalInfo] {
        try await self.snapshot(matching: query).renewalInfo
    }
}
