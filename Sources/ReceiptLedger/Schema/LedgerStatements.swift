import AppStorePKI
/// The ledger's statements, built once per dialect. Both backends run exactly these, so the shared test suite
/// exercises the same SQL on each.
struct LedgerStatements: Sendable {
    let dialect: SQLDialect

    /// Rows per multi-row `INSERT` and ids per `IN (…)` list: far below either database's bound-parameter limit.
    static let chunkSize = 200

    func insertReceipt(_ receipt: LedgerReceipt) -> SQLStatement {
        let p = self.dialect.placeholder
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_receipts (receipt_hash, environment, bundle_id, created_ms, first_seen_ms, receipt)
                VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)), \(p(6)))
                ON CONFLICT (receipt_hash) DO NOTHING
                RETURNING receipt_hash
                """,
            binds: [
                .text(receipt.hash), .text(receipt.environment.rawValue), .text(receipt.bundleIdentifier),
                .integer(receipt.creationMilliseconds), .integer(receipt.seenMilliseconds), .blob(receipt.bytes),
            ]
        )
    }

    /// Upserts `rows` (at most ``chunkSize``, sorted by transaction id so that concurrent writers lock rows in one
    /// order): a stored row is replaced only by a row from a newer receipt (creation date, then hash).
    func upsertTransactions(_ rows: ArraySlice<LedgerTransaction>) -> SQLStatement {
        let columns = LedgerTransaction.columns
        var binds: [SQLValue] = []
        binds.reserveCapacity(rows.count * columns.count)
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            let first = binds.count + 1
            let placeholders = (first..<first + columns.count).map(self.dialect.placeholder)
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
            binds.append(contentsOf: columns.map { $0.value(row) })
        }
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_transactions (\(Self.names(columns)))
                VALUES \(tuples.joined(separator: ", "))
                ON CONFLICT \(Self.upsert(columns, key: LedgerTransaction.keyColumns))
                WHERE (excluded.receipt_created_ms, excluded.receipt_hash)
                    > (receiptkit_transactions.receipt_created_ms, receiptkit_transactions.receipt_hash)
                RETURNING transaction_id
                """,
            binds: binds
        )
    }

    func selectReceipt(hash: String) -> SQLStatement {
        SQLStatement(
            sql: "SELECT receipt FROM receiptkit_receipts WHERE receipt_hash = \(self.dialect.placeholder(1))",
            binds: [.text(hash)]
        )
    }

    func upsertRenewalInfo(_ info: LedgerRenewalInfo) -> SQLStatement {
        let columns = LedgerRenewalInfo.columns
        let placeholders = (1...columns.count).map(self.dialect.placeholder).joined(separator: ", ")
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_renewal_info (\(Self.names(columns)))
                VALUES (\(placeholders))
                ON CONFLICT \(Self.upsert(columns, key: LedgerRenewalInfo.keyColumns))
                WHERE excluded.updated_ms >= receiptkit_renewal_info.updated_ms
                """,
            binds: columns.map { $0.value(info) }
        )
    }

    private static func names<Record>(_ columns: [LedgerColumn<Record>]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }

    /// `(key) DO UPDATE SET column = excluded.column, …` for every column but the key's.
    private static func upsert<Record>(_ columns: [LedgerColumn<Record>], key: [String]) -> String {
        let updates = columns.map(\.name).filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }
        return "(\(key.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
    }

    /// Inserts a notification unless its UUID is recorded; returns a row only when it was inserted.
    func insertNotification(_ notification: LedgerNotification) -> SQLStatement {
        let p = self.dialect.placeholder
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_notifications
                    (notification_uuid, environment, bundle_id, notification_type, subtype, signed_ms, received_ms,
                     payload_json)
                VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)), \(p(6)), \(p(7)), \(p(8)))
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING notification_uuid
                """,
            binds: [
                .text(notification.notificationUUID), .text(notification.environment.rawValue),
                .text(notification.bundleIdentifier), .text(notification.notificationType),
                notification.subtype.map(SQLValue.text) ?? .null, .integer(notification.signedMilliseconds),
                .integer(notification.receivedMilliseconds), .text(String(decoding: notification.payloadJSON, as: UTF8.self)),
            ]
        )
    }

    /// Transactions and renewal information in one statement. Rows tagged `t` are transactions; rows tagged `r`
    /// are renewal information in the columns of the same meaning (original transaction id, product, a date in
    /// milliseconds, JSON), NULL elsewhere — so each column keeps one type, as PostgreSQL's UNION requires.
    func selectSnapshot(_ query: LedgerQuery, ids: ArraySlice<String>) -> SQLStatement {
        let p = self.dialect.placeholder
        let list = (3..<3 + ids.count).map(p).joined(separator: ", ")
        let scope = "environment = \(p(1)) AND bundle_id = \(p(2)) AND original_transaction_id IN (\(list))"
        return SQLStatement(
            sql: """
                SELECT 't' AS kind, transaction_id, original_transaction_id, product_id, purchase_ms, expires_ms,
                       cancellation_ms, receipt_hash, receipt_created_ms, purchase_json
                FROM receiptkit_transactions WHERE \(scope)
                UNION ALL
                SELECT 'r', NULL, original_transaction_id, product_id, updated_ms, NULL, NULL, NULL, NULL, renewal_json
                FROM receiptkit_renewal_info WHERE \(scope)
                """,
            binds: [.text(query.environment.rawValue), .text(query.bundleIdentifier)] + ids.map { .text($0) }
        )
    }

    /// Splits `items` into consecutive chunks of at most ``chunkSize``.
    static func chunks<T>(_ items: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: Self.chunkSize).map {
            items[$0..<min($0 + Self.chunkSize, items.count)]
        }
    }
}
