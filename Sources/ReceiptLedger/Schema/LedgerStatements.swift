import AppStorePKI
import _ReceiptKitShared
/// The ledger's statements, built once per dialect. Both backends run exactly these, so the shared test suite
/// exercises the same SQL on each.
struct LedgerStatements: Sendable {
    let dialect: SQLDialect

    /// Rows per multi-row `INSERT` and ids per `IN (…)` list: far below either database's bound-parameter limit.
    static let chunkSize = 200

    /// Inserts `receipts` (at most ``chunkSize``, distinct by hash) unless recorded; returns the hash of each one
    /// inserted.
    func insertReceipts(_ receipts: ArraySlice<LedgerReceipt>) -> SQLStatement {
        var tuples: [String] = []
        var binds: [SQLValue] = []
        tuples.reserveCapacity(receipts.count)
        binds.reserveCapacity(receipts.count * 6)
        for receipt in receipts {
            let first = binds.count + 1
            tuples.append("(" + (first..<first + 6).map(self.dialect.placeholder).joined(separator: ", ") + ")")
            binds += [
                .text(receipt.hash), .text(receipt.environment.rawValue), .text(receipt.bundleIdentifier),
                .integer(receipt.creationMilliseconds), .integer(receipt.seenMilliseconds), .blob(receipt.bytes),
            ]
        }
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_receipts (receipt_hash, environment, bundle_id, created_ms, first_seen_ms, receipt)
                VALUES \(tuples.joined(separator: ", "))
                ON CONFLICT (receipt_hash) DO NOTHING
                RETURNING receipt_hash
                """,
            binds: binds
        )
    }

    /// Upserts `rows` (at most ``chunkSize``, distinct and sorted by transaction id so that concurrent writers lock
    /// rows in one order): a stored row is replaced only by a newer version (receipt creation or signing date, then
    /// hash), and a signed row that records a refund or revocation never by a receipt row without one
    /// (``LedgerTransaction/supersedes(_:)``).
    ///
    /// A row inserted, or replaced by different content, takes the next change number; a version that changes nothing
    /// (Apple signing the same transaction again) keeps the row's.
    func upsertTransactions(_ rows: ArraySlice<LedgerTransaction>) -> SQLStatement {
        let table = LedgerTransaction.table
        let (tuples, binds) = self.values(rows, table.columns, extra: self.dialect.nextChangeNumber)
        return SQLStatement(
            sql: """
                INSERT INTO \(table.name) (\(Self.names(table.columns)), change_seq)
                VALUES \(tuples)
                ON CONFLICT \(Self.upsert(table)),
                    change_seq = CASE WHEN excluded.purchase_json <> \(table.name).purchase_json
                        THEN excluded.change_seq ELSE \(table.name).change_seq END
                WHERE (excluded.receipt_created_ms, excluded.receipt_hash)
                    > (\(table.name).receipt_created_ms, \(table.name).receipt_hash)
                    AND NOT (excluded.source = 'receipt' AND excluded.cancellation_ms IS NULL
                        AND \(table.name).source <> 'receipt'
                        AND \(table.name).cancellation_ms IS NOT NULL)
                RETURNING environment, bundle_id, transaction_id
                """,
            binds: binds
        )
    }

    /// The `VALUES` tuples of a multi-row `INSERT` of `rows` into `columns` (and `extra`, an SQL expression, last in
    /// each), and their bound values.
    private func values<Record>(
        _ rows: ArraySlice<Record>, _ columns: [LedgerColumn<Record>], extra: String? = nil
    ) -> (tuples: String, binds: [SQLValue]) {
        var binds: [SQLValue] = []
        binds.reserveCapacity(rows.count * columns.count)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            let first = binds.count + 1
            let placeholders = (first..<first + columns.count).map(self.dialect.placeholder) + (extra.map { [$0] } ?? [])
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
            binds.append(contentsOf: columns.map { $0.value(row) })
        }
        return (tuples.joined(separator: ", "), binds)
    }

    func selectReceipt(hash: String) -> SQLStatement {
        SQLStatement(
            sql: "SELECT receipt FROM receiptkit_receipts WHERE receipt_hash = \(self.dialect.placeholder(1))",
            binds: [.text(hash)]
        )
    }

    /// A stored transaction's original transaction id, source, hash and JWS (its primary key's lookup).
    func selectSignedTransaction(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) -> SQLStatement {
        let p = self.dialect.placeholder
        return SQLStatement(
            sql: """
                SELECT original_transaction_id, source, receipt_hash, signed_jws FROM receiptkit_transactions
                WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND transaction_id = \(p(3))
                """,
            binds: [.text(environment.rawValue), .text(bundleIdentifier), .text(transactionIdentifier)]
        )
    }

    /// The original transaction ids of the customer that `transactionIdentifier` (a transaction id or an original
    /// transaction id) belongs to: its own, and every one whose newest receipt is its newest receipt — a receipt
    /// holds all of one customer's purchases in the app, so the original transactions it carries are one
    /// customer's. No row when no stored transaction has that id or original id.
    func selectCustomer(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionIdentifier: String
    ) -> SQLStatement {
        let p = self.dialect.placeholder
        return self.selectCustomer(
            environment: environment, bundleIdentifier: bundleIdentifier, key: transactionIdentifier,
            // Two lookups, one by each index: with `OR` SQLite read every transaction of the app.
            named: """
                SELECT t.original_transaction_id FROM receiptkit_transactions t
                    WHERE t.environment = \(p(1)) AND t.bundle_id = \(p(2)) AND t.transaction_id = \(p(3))
                UNION ALL
                SELECT t.original_transaction_id FROM receiptkit_transactions t
                    WHERE t.environment = \(p(1)) AND t.bundle_id = \(p(2)) AND t.original_transaction_id = \(p(3))
                """)
    }

    /// The original transaction ids of the customer whose signed transactions carry `appAccountToken` (compared in
    /// lower case, as Apple writes UUIDs): those transactions' own, and every one their newest receipts carry.
    func selectCustomer(
        environment: AppStoreEnvironment, bundleIdentifier: String, appAccountToken: String
    ) -> SQLStatement {
        let p = self.dialect.placeholder
        return self.selectCustomer(
            environment: environment, bundleIdentifier: bundleIdentifier, key: appAccountToken.lowercased(),
            named: """
                SELECT a.original_transaction_id FROM receiptkit_app_account_tokens a
                    WHERE a.environment = \(p(1)) AND a.bundle_id = \(p(2)) AND a.app_account_token = \(p(3))
                """)
    }

    /// The original transaction ids `named` selects (given the environment, the bundle id and `key` as its first
    /// three parameters), and every one whose newest receipt is one of theirs, each once.
    ///
    /// The parts are joined by `UNION ALL` and made distinct once, outside: SQLite 3.54 re-prepares a statement
    /// holding a `UNION` at every run whose bound values changed (`SQLITE_STMTSTATUS_REPREPARE` counted one per
    /// run; `perf` of Get All Subscription Statuses showed the parser at a tenth of the service's time), so the kept
    /// statement was parsed and planned again for every customer.
    private func selectCustomer(
        environment: AppStoreEnvironment, bundleIdentifier: String, key: String, named: String
    ) -> SQLStatement {
        let p = self.dialect.placeholder
        // SQLite, without statistics, may prefer the primary key's prefix (every original transaction of the app) to
        // the receipt index; PostgreSQL plans these unprepared statements from its statistics at each run.
        let byReceipt = self.dialect == .sqlite ? " INDEXED BY receiptkit_original_transactions_by_receipt" : ""
        return SQLStatement(
            sql: """
                SELECT DISTINCT customer.original_transaction_id FROM (
                \(named)
                UNION ALL
                SELECT c.original_transaction_id FROM receiptkit_original_transactions c\(byReceipt)
                WHERE c.environment = \(p(1)) AND c.bundle_id = \(p(2)) AND c.latest_receipt_hash IN (
                    SELECT o.latest_receipt_hash FROM receiptkit_original_transactions o
                    WHERE o.environment = \(p(1)) AND o.bundle_id = \(p(2)) AND o.latest_receipt_hash IS NOT NULL
                        AND o.original_transaction_id IN (\(named))
                )
                ) AS customer
                """,
            binds: [.text(environment.rawValue), .text(bundleIdentifier), .text(key)]
        )
    }

    /// The transactions of the original transaction ids `ids` (at most ``chunkSize``): id, original id, the
    /// current version's date, source and key, the JWS stored with it and its change number.
    func selectSignedTransactions(
        environment: AppStoreEnvironment, bundleIdentifier: String, ids: ArraySlice<String>
    ) -> SQLStatement {
        self.selectByOriginalTransaction(
            "transaction_id, original_transaction_id, receipt_created_ms, source, receipt_hash, signed_jws, change_seq",
            from: "receiptkit_transactions", environment: environment, bundleIdentifier: bundleIdentifier, ids: ids)
    }

    /// The renewal information of the original transaction ids `ids` (at most ``chunkSize``) that signed data
    /// taught the ledger: original id and JWS.
    func selectSignedRenewalInfo(
        environment: AppStoreEnvironment, bundleIdentifier: String, ids: ArraySlice<String>
    ) -> SQLStatement {
        self.selectByOriginalTransaction(
            "original_transaction_id, signed_jws", from: "receiptkit_renewal_info", environment: environment,
            bundleIdentifier: bundleIdentifier, ids: ids, and: "source <> 'receipt' AND signed_jws IS NOT NULL")
    }

    /// `columns` of `table`'s rows of the app whose original transaction id is one of `ids` (at most
    /// ``chunkSize``), and `condition` holds.
    private func selectByOriginalTransaction(
        _ columns: String, from table: String, environment: AppStoreEnvironment, bundleIdentifier: String,
        ids: ArraySlice<String>, and condition: String = "TRUE"
    ) -> SQLStatement {
        let p = self.dialect.placeholder
        let list = (0..<ids.count).map { p($0 + 3) }.joined(separator: ", ")
        return SQLStatement(
            sql: """
                SELECT \(columns) FROM \(table)
                WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND original_transaction_id IN (\(list))
                    AND \(condition)
                """,
            binds: [.text(environment.rawValue), .text(bundleIdentifier)] + ids.map { .text($0) }
        )
    }

    /// A page of the app's original transaction ids, ascending, from the transactions' index by original id.
    func selectOriginalTransactionIdentifiers(
        environment: AppStoreEnvironment, bundleIdentifier: String, after: String?, limit: Int
    ) -> SQLStatement {
        let p = self.dialect.placeholder
        return SQLStatement(
            sql: """
                SELECT DISTINCT original_transaction_id FROM receiptkit_transactions
                WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND original_transaction_id > \(p(3))
                ORDER BY original_transaction_id LIMIT \(max(0, limit))
                """,
            binds: [.text(environment.rawValue), .text(bundleIdentifier), .text(after ?? "")]
        )
    }

    /// The hashes among `hashes` (at most ``chunkSize``) of stored receipts.
    func selectRecordedReceipts(_ hashes: ArraySlice<String>) -> SQLStatement {
        let placeholders = (0..<hashes.count).map { self.dialect.placeholder($0 + 1) }.joined(separator: ", ")
        return SQLStatement(
            sql: "SELECT receipt_hash FROM receiptkit_receipts WHERE receipt_hash IN (\(placeholders))",
            binds: hashes.map { .text($0) }
        )
    }

    func upsertRenewalInfo(_ info: LedgerRenewalInfo) -> SQLStatement {
        let table = LedgerRenewalInfo.table
        let placeholders = (1...table.columns.count).map(self.dialect.placeholder).joined(separator: ", ")
        return SQLStatement(
            sql: """
                INSERT INTO \(table.name) (\(Self.names(table.columns)))
                VALUES (\(placeholders))
                ON CONFLICT \(Self.upsert(table))
                WHERE excluded.updated_ms >= \(table.name).updated_ms
                """,
            binds: table.columns.map { $0.value(info) }
        )
    }

    private static func names<Record>(_ columns: [LedgerColumn<Record>]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }

    /// `(key) DO UPDATE SET column = excluded.column, …` for every column but the key's.
    private static func upsert<Record>(_ table: LedgerTable<Record>) -> String {
        let key = table.keyColumns
        let updates = table.columns.map(\.name).filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }
        return "(\(key.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
    }

    /// Inserts a notification unless its UUID is recorded; returns a row only when it was inserted.
    func insertNotification(_ notification: LedgerNotification) -> SQLStatement {
        let p = self.dialect.placeholder
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_notifications
                    (notification_uuid, environment, bundle_id, notification_type, subtype, signed_ms, received_ms,
                     payload_json, signed_payload, original_transaction_id)
                VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)), \(p(6)), \(p(7)), \(p(8)), \(p(9)), \(p(10)))
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING notification_uuid
                """,
            binds: [
                .text(notification.notificationUUID), .text(notification.environment.rawValue),
                .text(notification.bundleIdentifier), .text(notification.notificationType),
                notification.subtype.map(SQLValue.text) ?? .null, .integer(notification.signedMilliseconds),
                .integer(notification.receivedMilliseconds), .text(String(decoding: notification.payloadJSON, as: UTF8.self)),
                notification.signedPayload.map(SQLValue.text) ?? .null,
                notification.originalTransactionIdentifier.map(SQLValue.text) ?? .null,
            ]
        )
    }

    /// The newest `limit` notifications of the app about one of `ids` (at most ``chunkSize``), newest first.
    func selectNotifications(
        environment: AppStoreEnvironment, bundleIdentifier: String, ids: ArraySlice<String>, limit: Int
    ) -> SQLStatement {
        var statement = self.selectByOriginalTransaction(
            "notification_uuid, original_transaction_id, notification_type, subtype, signed_ms, received_ms",
            // SQLite would walk the app's index backwards for the order (every notification of the app) unless told.
            from: self.dialect == .sqlite
                ? "receiptkit_notifications INDEXED BY receiptkit_notifications_by_original" : "receiptkit_notifications",
            environment: environment, bundleIdentifier: bundleIdentifier, ids: ids)
        // Ordered by an expression, not the column: the app's index (environment, bundle id, signed date) cannot then
        // offer the order, which would have a plan walk every notification of the app, newest first, filtering ids.
        statement.sql += "\nORDER BY signed_ms + 0 DESC, notification_uuid LIMIT \(max(0, limit))"
        return statement
    }

    /// Transactions, renewal information and original-transaction records in one statement
    /// (``LedgerSnapshotRead``).
    func selectSnapshot(_ query: LedgerQuery, ids: ArraySlice<String>) -> SQLStatement {
        let scope = [SQLValue.text(query.environment.rawValue), .text(query.bundleIdentifier)]
        switch self.dialect {
        case .sqlite:
            let list = (3..<3 + ids.count).map(self.dialect.placeholder).joined(separator: ", ")
            return SQLStatement(
                sql: LedgerSnapshotRead.shared.sql(dialect: .sqlite, ids: "IN (\(list))"),
                binds: scope + ids.map { .text($0) })
        case .postgres:
            // One text for every query, so PostgreSQL plans it once per connection (a prepared statement).
            return SQLStatement(sql: Self.postgresSnapshotSQL, binds: scope + [.texts(Array(ids))])
        }
    }

    /// The snapshot query of PostgreSQL: its ids are one `text[]`, so the text never varies.
    static let postgresSnapshotSQL = LedgerSnapshotRead.shared.sql(dialect: .postgres, ids: "$3")

    /// ``selectSnapshot(_:ids:)`` that also says whether the receipt of hash `hash` is recorded
    /// (``LedgerSnapshotRead/recognition(_:query:)``): a receipt posted again is recognised and its snapshot read in
    /// one statement, on a reader.
    func recogniseSnapshot(_ query: LedgerQuery, ids: ArraySlice<String>, hash: String) -> SQLStatement {
        let scope = [SQLValue.text(query.environment.rawValue), .text(query.bundleIdentifier)]
        switch self.dialect {
        case .sqlite:
            let list = (3..<3 + ids.count).map(self.dialect.placeholder).joined(separator: ", ")
            return SQLStatement(
                sql: LedgerSnapshotRead.shared.sql(
                    dialect: .sqlite, ids: "IN (\(list))", recognising: self.dialect.placeholder(3 + ids.count)),
                binds: scope + ids.map { .text($0) } + [.text(hash)])
        case .postgres:
            return SQLStatement(sql: Self.postgresRecogniseSQL, binds: scope + [.texts(Array(ids)), .text(hash)])
        }
    }

    /// The recognising snapshot query of PostgreSQL, of one text whatever the query.
    static let postgresRecogniseSQL = LedgerSnapshotRead.shared.sql(
        dialect: .postgres, ids: "$3", recognising: "$4")

    /// Upserts original-transaction records (at most ``chunkSize``, distinct and sorted by id), replacing only
    /// `upsert`'s columns and only when its condition holds.
    func upsertOriginalTransactions(
        _ rows: ArraySlice<LedgerOriginalTransaction>,
        _ upsert: LedgerOriginalTransaction.OriginalTransactionUpsert
    ) -> SQLStatement {
        let table = LedgerOriginalTransaction.table
        let (tuples, binds) = self.values(rows, table.columns)
        let updates = upsert.columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return SQLStatement(
            sql: """
                INSERT INTO \(table.name) (\(Self.names(table.columns)))
                VALUES \(tuples)
                ON CONFLICT (\(table.keyColumns.joined(separator: ", "))) DO UPDATE SET \(updates)
                WHERE \(upsert.condition)
                """,
            binds: binds
        )
    }

    /// The statements applying signed data: its transactions (one version per transaction, the one signed last),
    /// its renewal information (one per subscription, the newest), then the refresh time of the ids it covered —
    /// each sorted by id, in the order ``ReceiptBatch`` writes tables.
    func apply(_ update: LedgerUpdate) -> [SQLStatement] {
        var transactions: [[String]: LedgerTransaction] = [:]
        for var row in update.transactions {
            row.source = update.source
            let key = [row.environment.rawValue, row.bundleIdentifier, row.transactionIdentifier]
            if let kept = transactions[key], !row.supersedes(kept) { continue }
            transactions[key] = row
        }
        var infos: [[String]: LedgerRenewalInfo] = [:]
        for var info in update.renewalInfo {
            info.source = update.source
            let key = [info.environment.rawValue, info.bundleIdentifier, info.originalTransactionIdentifier]
            if let kept = infos[key], kept.updatedMilliseconds > info.updatedMilliseconds { continue }
            infos[key] = info
        }
        let rows = transactions.values.sorted { $0.transactionIdentifier < $1.transactionIdentifier }
        var statements = Self.chunks(rows).map { self.upsertTransactions($0) }
        statements += Self.chunks(Self.appAccountTokens(of: rows)).map { self.insertAppAccountTokens($0) }
        statements += infos.values.sorted { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
            .map { self.upsertRenewalInfo($0) }
        if let refresh = update.refresh {
            let query = refresh.query
            let records = query.originalTransactionIdentifiers.sorted().map {
                LedgerOriginalTransaction(
                    environment: query.environment, bundleIdentifier: query.bundleIdentifier,
                    originalTransactionIdentifier: $0, latestReceiptHash: nil, latestReceiptCreationMilliseconds: nil,
                    apiRefreshedMilliseconds: refresh.milliseconds)
            }
            statements += Self.chunks(records).map {
                self.upsertOriginalTransactions($0, LedgerOriginalTransaction.refreshUpdate)
            }
        }
        return statements
    }

    /// The app account tokens `rows` carry (their `latest_receipt_info` element's `app_account_token`, lower-cased),
    /// each with its row's app and original transaction id, distinct and sorted (so that concurrent writers lock
    /// rows in one order).
    static func appAccountTokens(of rows: [LedgerTransaction]) -> [[String]] {
        var tokens = Set<[String]>()
        for row in rows where !row.json.isEmpty {
            guard case .object(let members)? = try? JSONParser.parse(row.json, maximumDepth: 4),
                case .string(let token)? = members["app_account_token"], !token.isEmpty
            else { continue }
            tokens.insert([
                row.environment.rawValue, row.bundleIdentifier, token.lowercased(), row.originalTransactionIdentifier,
            ])
        }
        return tokens.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Records app account tokens (environment, bundle id, token, original transaction id; at most ``chunkSize``),
    /// keeping those recorded before.
    func insertAppAccountTokens(_ tokens: ArraySlice<[String]>) -> SQLStatement {
        var binds: [SQLValue] = []
        var tuples: [String] = []
        for token in tokens {
            let first = binds.count + 1
            tuples.append("(" + (first..<first + 4).map(self.dialect.placeholder).joined(separator: ", ") + ")")
            binds += token.map(SQLValue.text)
        }
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_app_account_tokens (environment, bundle_id, app_account_token, original_transaction_id)
                VALUES \(tuples.joined(separator: ", "))
                ON CONFLICT DO NOTHING
                """,
            binds: binds
        )
    }

    /// Splits `items` into consecutive chunks of at most ``chunkSize``.
    static func chunks<T>(_ items: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: Self.chunkSize).map {
            items[$0..<min($0 + Self.chunkSize, items.count)]
        }
    }
}
