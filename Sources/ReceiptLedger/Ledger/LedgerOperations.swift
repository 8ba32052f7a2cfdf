/// The ledger's logic, written once over ``SQLBackend``: both ``SQLiteLedger`` and ``PostgresLedger`` forward here,
/// so they differ only in how statements reach the database.
struct LedgerOperations<Backend: SQLBackend>: Sendable {
    let backend: Backend
    let statements: LedgerStatements
    let known = KnownReceipts()
    /// Snapshots read before; kept from the start where every write goes through this process, else once the
    /// backend sees the others' writes (``PostgresLedger``'s change listener).
    let snapshots: LedgerSnapshotCache
    /// Concurrent writes share a transaction and its commit.
    let writes: LedgerWriteBatcher<Backend>

    init(backend: Backend, snapshotCacheBytes: Int = LedgerSnapshotCache.defaultBytes) {
        self.backend = backend
        self.statements = LedgerStatements(dialect: backend.dialect)
        self.writes = LedgerWriteBatcher(backend: backend, statements: self.statements)
        self.snapshots = LedgerSnapshotCache(maximumBytes: snapshotCacheBytes, enabled: backend.seesEveryWrite)
    }

    func migrate() async throws(LedgerError) {
        try await self.migrate(upTo: LedgerMigration.latestVersion)
    }

    /// Applies the migrations up to `target` (tests build the ledgers of older versions with it).
    func migrate(upTo target: Int) async throws(LedgerError) {
        let dialect = self.backend.dialect
        defer { self.snapshots.flush() }
        let reached = try await self.guarded {
            try await self.backend.transaction(exclusive: true) { session in
                _ = try await session.run(SQLStatement(sql: LedgerMigration.createVersionTable(dialect), binds: []))
                let current = try await Self.version(session)
                guard current <= LedgerMigration.latestVersion else {
                    throw LedgerError(
                        .incompatibleSchema,
                        "the database is at schema version \(current); this build knows up to \(LedgerMigration.latestVersion)"
                    )
                }
                for migration in LedgerMigration.all where migration.version > current && migration.version <= target {
                    for sql in migration.statements(dialect) {
                        _ = try await session.run(SQLStatement(sql: sql, binds: []))
                    }
                    _ = try await session.run(migration.recordStatement(dialect))
                }
                return max(current, min(target, LedgerMigration.latestVersion))
            }
        }
        // The schema now announces every change (PostgreSQL's triggers): snapshots may be kept once they are heard.
        if reached >= LedgerMigration.changeNotificationsVersion { self.snapshots.schemaAnnouncesChanges() }
    }

    func schemaVersion() async throws(LedgerError) -> Int {
        let dialect = self.backend.dialect
        return try await self.guarded {
            try await self.backend.read { session in
                // Read only: a database never migrated is at version 0, and a role that may not create tables
                // (`migrate_on_start` false) can still ask.
                let exists = try await session.run(SQLStatement(sql: dialect.versionTableExists, binds: []))
                guard let row = exists.first, row.count == 1, case .integer(1) = row[0] else { return 0 }
                return try await Self.version(session)
            }
        }
    }

    func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary {
        if self.known.contains(receipt.hash) {
            return LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0)
        }
        try Self.refuseNUL(receipt)
        return try await self.write(receipt)
    }

    /// Records `receipt` in the group commit (unless its row is there already, written by another instance).
    private func write(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary {
        defer { self.snapshots.written(receipt.originalTransactionIdentifiers + receipt.transactionIdentifiers) }
        let summary = try await self.guarded { try await self.writes.record(receipt) }
        self.known.insert(receipt.hash)  // committed (now or before): never written again by this process
        return summary
    }

    /// Records `receipt` unless it is recorded, and reads the snapshot of its original transaction ids. A receipt
    /// this process knows is recorded costs a snapshot read (or none, kept); one it does not know is first looked
    /// for with its snapshot in one statement on a reader, and written only when it is not there.
    func recordAndSnapshot(_ receipt: LedgerReceipt) async throws(LedgerError)
        -> (summary: LedgerWriteSummary, snapshot: LedgerSnapshot)
    {
        let query = LedgerQuery(receipt: receipt)
        let unchanged = LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0)
        if self.known.contains(receipt.hash) { return (unchanged, try await self.snapshot(matching: query)) }
        // Refused before the database sees its strings (PostgreSQL fails a statement carrying U+0000).
        try Self.refuseNUL(receipt)
        // A receipt without purchases has no snapshot to read along.
        if query.originalTransactionIdentifiers.isEmpty {
            return (try await self.write(receipt), LedgerSnapshot(transactions: [], renewalInfo: []))
        }
        let ticket = self.snapshots.ticket()
        let statements = self.statements
        let rows = try await self.guarded {
            try await self.backend.read { session in
                var rows: [[SQLValue]] = []
                for (index, ids) in LedgerStatements.chunks(query.originalTransactionIdentifiers).enumerated() {
                    rows += try await session.run(
                        index == 0
                            ? statements.recogniseSnapshot(query, ids: ids, hash: receipt.hash)
                            : statements.selectSnapshot(query, ids: ids))
                }
                return rows
            }
        }
        let (snapshot, recorded) = try LedgerSnapshotRead.shared.recognition(rows, query: query)
        guard recorded else {
            return (try await self.write(receipt), try await self.snapshot(matching: query))
        }
        self.known.insert(receipt.hash)
        if let ticket { self.snapshots.keep(snapshot, for: query, ticket: ticket) }
        return (unchanged, snapshot)
    }

    func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot {
        guard !query.originalTransactionIdentifiers.isEmpty else {
            return LedgerSnapshot(transactions: [], renewalInfo: [])
        }
        if let kept = self.snapshots.snapshot(for: query) { return kept }
        let ticket = self.snapshots.ticket()
        let statements = self.statements
        let rows = try await self.guarded {
            try await self.backend.read { session in
                var rows: [[SQLValue]] = []
                for ids in LedgerStatements.chunks(query.originalTransactionIdentifiers) {
                    rows += try await session.run(statements.selectSnapshot(query, ids: ids))
                }
                return rows
            }
        }
        let snapshot = try LedgerSnapshotRead.shared.snapshot(rows, query: query)
        if let ticket { self.snapshots.keep(snapshot, for: query, ticket: ticket) }
        return snapshot
    }

    func receipt(hash: String) async throws(LedgerError) -> [UInt8]? {
        let statement = self.statements.selectReceipt(hash: hash)
        let rows = try await self.guarded {
            try await self.backend.read { session in try await session.run(statement) }
        }
        guard let row = rows.first else { return nil }
        guard row.count == 1, case .blob(let bytes) = row[0] else {
            throw LedgerError(.incompatibleSchema, "a stored receipt is not a byte string")
        }
        return bytes
    }

    func signedTransaction(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerSignedTransaction? {
        let statement = self.statements.selectSignedTransaction(
            environment: environment, bundleIdentifier: bundleIdentifier, transactionIdentifier: transactionIdentifier)
        let rows = try await self.guarded {
            try await self.backend.read { session in try await session.run(statement) }
        }
        guard let row = rows.first else { return nil }
        guard row.count == 4, case .text(let original) = row[0], case .text(let source) = row[1],
            case .text(let hash) = row[2]
        else {
            throw LedgerError(.incompatibleSchema, "a stored transaction's id, source or hash is not text")
        }
        let jws: String?
        switch row[3] {
        case .text(let text): jws = text
        case .null: jws = nil
        default: throw LedgerError(.incompatibleSchema, "a stored transaction's JWS is not text")
        }
        return LedgerSignedTransaction(
            originalTransactionIdentifier: original, source: LedgerSource(rawValue: source), receiptHash: hash,
            signedJWS: jws)
    }

    /// The customer `transactionIdentifier` (a transaction id or an original transaction id) belongs to, read on
    /// one connection: the customer's original transaction ids, their transactions with the JWS stored, and their
    /// signed renewal information.
    func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        try await self.customer(
            environment: environment, bundleIdentifier: bundleIdentifier,
            identified: self.statements.selectCustomer(
                environment: environment, bundleIdentifier: bundleIdentifier, transactionIdentifier: transactionIdentifier))
    }

    /// The customer whose signed transactions carry `appAccountToken`, read as the one a transaction id names.
    func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) async throws(LedgerError) -> LedgerCustomer? {
        try await self.customer(
            environment: environment, bundleIdentifier: bundleIdentifier,
            identified: self.statements.selectCustomer(
                environment: environment, bundleIdentifier: bundleIdentifier, appAccountToken: appAccountToken))
    }

    /// The newest `limit` notifications about `originalTransactionIdentifiers`, newest signed first (then by UUID).
    func notifications(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String], limit: Int
    ) async throws(LedgerError) -> [LedgerNotificationEntry] {
        let statements = self.statements
        let rows = try await self.guarded {
            try await self.backend.read { session in
                var rows: [[SQLValue]] = []
                for chunk in LedgerStatements.chunks(originalTransactionIdentifiers.sorted()) {
                    rows += try await session.run(
                        statements.selectNotifications(
                            environment: environment, bundleIdentifier: bundleIdentifier, ids: chunk, limit: limit))
                }
                return rows
            }
        }
        var entries: [LedgerNotificationEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == 6, case .text(let uuid) = row[0], case .text(let original) = row[1],
                case .text(let type) = row[2], case .integer(let signed) = row[4], case .integer(let received) = row[5]
            else {
                throw LedgerError(.incompatibleSchema, "a stored notification's ids, type or dates are not as written")
            }
            let subtype: String?
            switch row[3] {
            case .text(let text): subtype = text
            case .null: subtype = nil
            default: throw LedgerError(.incompatibleSchema, "a stored notification's subtype is not text")
            }
            entries.append(
                LedgerNotificationEntry(
                    notificationUUID: uuid, originalTransactionIdentifier: original, notificationType: type,
                    subtype: subtype, signedMilliseconds: signed, receivedMilliseconds: received))
        }
        // Chunks each come ordered: merge them.
        entries.sort {
            ($0.signedMilliseconds, $1.notificationUUID) > ($1.signedMilliseconds, $0.notificationUUID)
        }
        return Array(entries.prefix(max(0, limit)))
    }

    /// The app's original transaction ids after `after`, ascending, at most `limit`.
    func originalTransactionIdentifiers(
        environment: AppStoreEnvironment, bundleIdentifier: String, after: String?, limit: Int
    ) async throws(LedgerError) -> [String] {
        let statement = self.statements.selectOriginalTransactionIdentifiers(
            environment: environment, bundleIdentifier: bundleIdentifier, after: after, limit: limit)
        let rows = try await self.guarded {
            try await self.backend.read { session in try await session.run(statement) }
        }
        var identifiers: [String] = []
        identifiers.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == 1, case .text(let id) = row[0] else {
                throw LedgerError(.incompatibleSchema, "a stored original transaction id is not text")
            }
            identifiers.append(id)
        }
        return identifiers
    }

    /// The customer whose original transaction ids `identify` selects, read on one connection.
    private func customer(
        environment: AppStoreEnvironment, bundleIdentifier: String, identified identify: SQLStatement
    ) async throws(LedgerError) -> LedgerCustomer? {
        let statements = self.statements
        let rows = try await self.guarded {
            try await self.backend.read { session -> (ids: [[SQLValue]], transactions: [[SQLValue]], renewals: [[SQLValue]]) in
                // The ids, then their transactions and renewal information, chunk by chunk: on SQLite one hop.
                let results = try await session.run(identify) { ids in
                    var identifiers: [String] = []
                    for row in ids { if row.count == 1, case .text(let id) = row[0] { identifiers.append(id) } }
                    return LedgerStatements.chunks(identifiers.sorted()).flatMap { chunk in
                        [
                            statements.selectSignedTransactions(
                                environment: environment, bundleIdentifier: bundleIdentifier, ids: chunk),
                            statements.selectSignedRenewalInfo(
                                environment: environment, bundleIdentifier: bundleIdentifier, ids: chunk),
                        ]
                    }
                }
                var transactions: [[SQLValue]] = []
                var renewals: [[SQLValue]] = []
                for (offset, rows) in results.dropFirst().enumerated() {
                    if offset % 2 == 0 { transactions += rows } else { renewals += rows }
                }
                return (results.first ?? [], transactions, renewals)
            }
        }
        guard !rows.ids.isEmpty else { return nil }
        var identifiers: [String] = []
        for row in rows.ids {
            guard row.count == 1, case .text(let identifier) = row[0] else {
                throw LedgerError(.incompatibleSchema, "a stored original transaction id is not text")
            }
            identifiers.append(identifier)
        }
        var transactions: [LedgerCustomerTransaction] = []
        transactions.reserveCapacity(rows.transactions.count)
        for row in rows.transactions {
            guard row.count == 7, case .text(let id) = row[0], case .text(let original) = row[1],
                case .integer(let version) = row[2], case .text(let source) = row[3], case .text(let hash) = row[4],
                case .integer(let change) = row[6]
            else {
                throw LedgerError(.incompatibleSchema, "a stored transaction's ids, date, source or hash are not as written")
            }
            let jws: String?
            switch row[5] {
            case .text(let text): jws = text
            case .null: jws = nil
            default: throw LedgerError(.incompatibleSchema, "a stored transaction's JWS is not text")
            }
            transactions.append(
                LedgerCustomerTransaction(
                    transactionIdentifier: id, versionMilliseconds: version, changeNumber: change,
                    signed: LedgerSignedTransaction(
                        originalTransactionIdentifier: original, source: LedgerSource(rawValue: source),
                        receiptHash: hash, signedJWS: jws)))
        }
        var renewals: [String: String] = [:]
        for row in rows.renewals {
            guard row.count == 2, case .text(let original) = row[0], case .text(let jws) = row[1] else {
                throw LedgerError(.incompatibleSchema, "a stored renewal info's id or JWS is not text")
            }
            renewals[original] = jws
        }
        return LedgerCustomer(
            environment: environment, bundleIdentifier: bundleIdentifier,
            originalTransactionIdentifiers: identifiers.sorted(), transactions: transactions,
            signedRenewalInfo: renewals)
    }

    func recordedReceipts(among hashes: [String]) async throws(LedgerError) -> Set<String> {
        let distinct = Array(Set(hashes))
        guard !distinct.isEmpty else { return [] }
        let statements = LedgerStatements.chunks(distinct).map(self.statements.selectRecordedReceipts)
        let rows = try await self.guarded {
            try await self.backend.read { session in
                var rows: [[SQLValue]] = []
                for statement in statements { rows += try await session.run(statement) }
                return rows
            }
        }
        var recorded = Set<String>()
        for row in rows {
            guard row.count == 1, case .text(let hash) = row[0] else {
                throw LedgerError(.incompatibleSchema, "a stored receipt hash is not text")
            }
            recorded.insert(hash)
        }
        return recorded
    }

    func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool {
        let insert = self.statements.insertNotification(notification)
        // Its outbox entries are written with it: nothing is acknowledged to Apple that is not also to be sent on.
        let writes = self.statements.apply(notification.update)
            + (Self.insertOutbox(notification, dialect: self.backend.dialect).map { [$0] } ?? [])
        try Self.refuseNUL([insert] + writes)
        defer { self.snapshots.written(notification.update.writtenIdentifiers) }
        return try await self.guarded {
            try await self.writes.write { session in
                // The UUID first: a notification recorded before (Apple's retry, or a replay) applies nothing.
                guard !(try await session.run(insert)).isEmpty else { return false }
                for write in writes {
                    _ = try await session.run(write)
                }
                return true
            }
        }
    }

    func apply(_ update: LedgerUpdate) async throws(LedgerError) {
        let writes = self.statements.apply(update)
        try Self.refuseNUL(writes)
        guard !writes.isEmpty else { return }
        defer { self.snapshots.written(update.writtenIdentifiers) }
        try await self.guarded {
            _ = try await self.writes.write { session in
                for write in writes {
                    _ = try await session.run(write)
                }
                return true
            }
        }
    }

    func ping() async throws(LedgerError) {
        try await self.guarded {
            _ = try await self.backend.read { session in
                try await session.run(SQLStatement(sql: "SELECT 1", binds: [])).count
            }
        }
    }

    /// Refuses a receipt a string of which, to be stored as text, holds U+0000 (for the reason given below, where
    /// statements are checked).
    private static func refuseNUL(_ receipt: LedgerReceipt) throws(LedgerError) {
        if receipt.storesNUL { throw LedgerError(.stringContainsNUL, "a string to be stored holds U+0000") }
    }

    /// Refuses writes whose text holds U+0000, before any of them starts: PostgreSQL's `text` cannot store it and
    /// SQLite can, and a row one backend keeps and the other refuses for ever (a notification Apple retries until it
    /// gives up) must be refused by both.
    private static func refuseNUL(_ statements: [SQLStatement]) throws(LedgerError) {
        for statement in statements {
            for bind in statement.binds {
                let texts: [String]
                switch bind {
                case .text(let text): texts = [text]
                case .texts(let list): texts = list
                case .integer, .blob, .null: continue
                }
                if texts.contains(where: ByteSearch.containsNUL) {
                    throw LedgerError(.stringContainsNUL, "a string to be stored holds U+0000")
                }
            }
        }
    }

    private static func version(_ session: any SQLSession) async throws -> Int {
        let rows = try await session.run(SQLStatement(sql: LedgerMigration.selectVersion, binds: []))
        guard let row = rows.first, row.count == 1, case .integer(let version) = row[0] else {
            throw LedgerError(.incompatibleSchema, "receiptkit_schema holds no readable version")
        }
        return Int(clamping: version)
    }

    /// Runs `body`, turning whatever the driver throws into a ``LedgerError``.
    func guarded<T>(_ body: () async throws -> T) async throws(LedgerError) -> T {
        do {
            return try await body()
        } catch let error as LedgerError {
            throw error
        } catch {
            throw self.backend.ledgerError(error)
        }
    }
}
