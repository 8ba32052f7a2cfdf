import _ReceiptKitShared

extension LedgerOperations {
    /// The columns an outbox entry is read from, in ``entry(_:)``'s order, from `receiptkit_notification_outbox`
    /// (not aliased): the last, the notification's signed payload when the body is stored around it (``OutboxBody``).
    private static func outboxColumns(_ dialect: SQLDialect) -> String {
        let hex = HexDigits.string(OutboxBody.referenceMark)
        let mark = dialect == .postgres ? "'\\x\(hex)'::bytea" : "X'\(hex)'"
        return """
            target, notification_uuid, environment, bundle_id, original_transaction_id, notification_type, subtype, \
            signed_ms, created_ms, body, state, attempts, next_attempt_ms, deadline_ms, last_error,
            CASE WHEN substr(body, 1, 4) = \(mark) THEN (
                SELECT n.signed_payload FROM receiptkit_notifications n
                WHERE n.notification_uuid = receiptkit_notification_outbox.notification_uuid) END
            """
    }

    /// The outbox entries of a new notification, one per target (nothing for a notification without forwarding):
    /// run in the transaction that records it, right after its UUID proved new. The body is stored around the
    /// notification's signed payload when it holds it (``OutboxBody``): the JWS is written once, in the notification.
    static func insertOutbox(_ notification: LedgerNotification, dialect: SQLDialect) -> SQLStatement? {
        guard let forwarding = notification.forwarding, !forwarding.targets.isEmpty else { return nil }
        let p = dialect.placeholder
        let targets = Array(Set(forwarding.targets)).sorted()
        // Shared values first (placeholders 1…11), then one target each.
        let rows = targets.indices.map { index in
            "(\(p(12 + index)), \(p(1)), \(p(2)), \(p(3)), \(p(4)), \(p(5)), \(p(6)), \(p(7)), \(p(8)), \(p(9)), "
                + "\(p(10)), 'pending', 0, \(p(9)), \(p(11)), NULL, 0, NULL)"
        }
        let original = notification.originalTransactionIdentifier
        return SQLStatement(
            sql: """
                INSERT INTO receiptkit_notification_outbox
                    (target, notification_uuid, environment, bundle_id, order_key, original_transaction_id,
                     notification_type, subtype, signed_ms, created_ms, body, state, attempts, next_attempt_ms,
                     deadline_ms, holder, lease_until_ms, last_error)
                VALUES \(rows.joined(separator: ",\n    "))
                ON CONFLICT (target, notification_uuid) DO NOTHING
                """,
            binds: [
                .text(notification.notificationUUID), .text(notification.environment.rawValue),
                .text(notification.bundleIdentifier), .text(original ?? "uuid:" + notification.notificationUUID),
                original.map(SQLValue.text) ?? .null, .text(notification.notificationType),
                notification.subtype.map(SQLValue.text) ?? .null, .integer(notification.signedMilliseconds),
                .integer(notification.receivedMilliseconds),
                .blob(OutboxBody.stored(forwarding.body, signedPayload: notification.signedPayload)),
                .integer(forwarding.deadlineMilliseconds),
            ] + targets.map { .text($0) })
    }

    func claimOutbox(_ claim: LedgerOutboxClaim) async throws(LedgerError) -> [LedgerOutboxEntry] {
        let targets = Array(Set(claim.targets)).sorted()
        guard !targets.isEmpty, claim.limit > 0 else { return [] }
        let dialect = self.backend.dialect
        let p = dialect.placeholder
        let until = claim.atMilliseconds.addingReportingOverflow(claim.leaseMilliseconds)
        let list = targets.indices.map { p(4 + $0) }.joined(separator: ", ")
        // Only the first pending entry of each order (its original transaction, per target) is ever claimable, so
        // that a later one waits for it; leased entries are skipped. On PostgreSQL, instances claiming at once skip
        // each other's locked rows; a row another just leased is re-read at its lock and fails the lease test.
        let locking = dialect == .postgres ? "FOR UPDATE OF c SKIP LOCKED" : ""
        let statement = SQLStatement(
            sql: """
                UPDATE receiptkit_notification_outbox
                SET holder = \(p(1)), lease_until_ms = \(p(2)), attempts = attempts + 1
                WHERE (target, notification_uuid) IN (
                    SELECT c.target, c.notification_uuid FROM receiptkit_notification_outbox c
                    WHERE c.state = 'pending' AND c.next_attempt_ms <= \(p(3)) AND c.lease_until_ms <= \(p(3))
                        AND c.target IN (\(list))
                        AND NOT EXISTS (
                            SELECT 1 FROM receiptkit_notification_outbox e
                            WHERE e.target = c.target AND e.environment = c.environment AND e.bundle_id = c.bundle_id
                                AND e.order_key = c.order_key AND e.state = 'pending'
                                AND (e.signed_ms < c.signed_ms
                                    OR (e.signed_ms = c.signed_ms AND e.notification_uuid < c.notification_uuid)))
                    ORDER BY c.next_attempt_ms
                    LIMIT \(claim.limit)
                    \(locking))
                RETURNING \(Self.outboxColumns(dialect))
                """,
            binds: [
                .text(claim.holder), .integer(until.overflow ? .max : until.partialValue), .integer(claim.atMilliseconds),
            ] + targets.map { .text($0) })
        // Through the group commit: claims and settlements share their commits with the notifications recorded
        // meanwhile (on SQLite, one writer and a durable commit each).
        let rows = try await self.guarded {
            try await self.writes.write { session in try await session.run(statement) }
        }
        var entries: [LedgerOutboxEntry] = []
        var unsendable: [LedgerOutboxEntry] = []
        for row in rows {
            let (entry, complete) = try Self.entry(row)
            if complete { entries.append(entry) } else { unsendable.append(entry) }
        }
        if !unsendable.isEmpty { try await self.park(unsendable, holder: claim.holder) }
        return entries.sorted { ($0.signedMilliseconds, $0.notificationUUID) < ($1.signedMilliseconds, $1.notificationUUID) }
    }

    /// Parks claimed entries whose body cannot be put together again: it refers to its notification's signed
    /// payload, and that notification is no longer in the ledger (removed by hand). Sending them could never succeed;
    /// parked, they stop holding back their original transaction's later entries and are listed with the reason.
    private func park(_ entries: [LedgerOutboxEntry], holder: String) async throws(LedgerError) {
        let p = self.backend.dialect.placeholder
        let statements = entries.map { entry in
            SQLStatement(
                sql: """
                    UPDATE receiptkit_notification_outbox
                    SET state = 'parked', last_error = \(p(4)), holder = NULL, lease_until_ms = 0
                    WHERE target = \(p(1)) AND notification_uuid = \(p(2)) AND holder = \(p(3))
                    RETURNING notification_uuid
                    """,
                binds: [
                    .text(entry.target), .text(entry.notificationUUID), .text(holder),
                    .text(OutboxBody.missingPayloadError),
                ])
        }
        _ = try await self.guarded {
            try await self.writes.write { session in
                for statement in statements { _ = try await session.run(statement) }
            }
        }
    }

    func settleOutbox(_ settlements: [LedgerOutboxSettlement]) async throws(LedgerError) -> Int {
        let p = self.backend.dialect.placeholder
        var statements: [SQLStatement] = []
        // Delivered is delivered, whoever holds the entry now (a lease that lapsed mid-send): one statement per
        // target for a round's deliveries.
        let delivered = Dictionary(grouping: settlements.filter { $0.outcome == .delivered }, by: \.target)
        for (target, group) in delivered.sorted(by: { $0.key < $1.key }) {
            for chunk in LedgerStatements.chunks(Array(Set(group.map(\.notificationUUID))).sorted()) {
                let list = chunk.indices.map { p($0 - chunk.startIndex + 2) }.joined(separator: ", ")
                statements.append(
                    SQLStatement(
                        sql: """
                            DELETE FROM receiptkit_notification_outbox WHERE target = \(p(1)) AND notification_uuid IN (\(list))
                            RETURNING notification_uuid
                            """,
                        binds: [.text(target)] + chunk.map { .text($0) }))
            }
        }
        for settlement in settlements {
            let key: [SQLValue] = [.text(settlement.target), .text(settlement.notificationUUID), .text(settlement.holder)]
            switch settlement.outcome {
            case .delivered:
                continue
            case .retry(let at, let error):
                statements.append(
                    SQLStatement(
                        sql: """
                            UPDATE receiptkit_notification_outbox
                            SET next_attempt_ms = \(p(4)), last_error = \(p(5)), holder = NULL, lease_until_ms = 0
                            WHERE target = \(p(1)) AND notification_uuid = \(p(2)) AND holder = \(p(3)) AND state = 'pending'
                            RETURNING notification_uuid
                            """,
                        binds: key + [.integer(at), .text(error)]))
            case .parked(let error):
                statements.append(
                    SQLStatement(
                        sql: """
                            UPDATE receiptkit_notification_outbox
                            SET state = 'parked', last_error = \(p(4)), holder = NULL, lease_until_ms = 0
                            WHERE target = \(p(1)) AND notification_uuid = \(p(2)) AND holder = \(p(3)) AND state = 'pending'
                            RETURNING notification_uuid
                            """,
                        binds: key + [.text(error)]))
            }
        }
        guard !statements.isEmpty else { return 0 }
        for statement in statements { try Self.refuseNULInOutbox(statement) }
        let all = statements
        return try await self.guarded {
            try await self.writes.write { session in
                var changed = 0
                for statement in all { changed += try await session.run(statement).count }
                return changed
            }
        }
    }

    func outboxEntries(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> [LedgerOutboxEntry] {
        var statement = self.filtered(
            "SELECT \(Self.outboxColumns(self.backend.dialect)) FROM receiptkit_notification_outbox", filter)
        statement.sql += "\nORDER BY created_ms, signed_ms, notification_uuid, target LIMIT \(max(0, filter.limit))"
        let selected = statement
        let rows = try await self.guarded {
            try await self.backend.read { session in try await session.run(selected) }
        }
        return try rows.map { row throws(LedgerError) in try Self.entry(row).entry }
    }

    func retryOutbox(
        _ filter: LedgerOutboxFilter, atMilliseconds: Int64, deadlineMilliseconds: Int64
    ) async throws(LedgerError) -> Int {
        let p = self.backend.dialect.placeholder
        // An entry being sent now (its lease live) is left to its sender: taking it back would let a second sender
        // claim it at the same time.
        let statement = self.filtered(
            """
            UPDATE receiptkit_notification_outbox
            SET state = 'pending', next_attempt_ms = \(p(1)), deadline_ms = \(p(2)), holder = NULL, lease_until_ms = 0
            """,
            filter, binds: [.integer(atMilliseconds), .integer(deadlineMilliseconds)], returning: true,
            also: "(state = 'parked' OR lease_until_ms <= \(p(1)))")
        return try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in try await session.run(statement).count }
        }
    }

    func dropOutbox(_ filter: LedgerOutboxFilter) async throws(LedgerError) -> Int {
        let statement = self.filtered("DELETE FROM receiptkit_notification_outbox", filter, returning: true)
        return try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in try await session.run(statement).count }
        }
    }

    func outboxTotals() async throws(LedgerError) -> [LedgerOutboxTotals] {
        let statement = SQLStatement(
            sql: """
                SELECT target,
                    SUM(CASE WHEN state = 'pending' THEN 1 ELSE 0 END),
                    SUM(CASE WHEN state = 'parked' THEN 1 ELSE 0 END),
                    MIN(CASE WHEN state = 'pending' THEN created_ms END)
                FROM receiptkit_notification_outbox GROUP BY target ORDER BY target
                """,
            binds: [])
        let rows = try await self.guarded {
            try await self.backend.read { session in try await session.run(statement) }
        }
        return try rows.map { row throws(LedgerError) in
            guard row.count == 4 else { throw LedgerError(.incompatibleSchema, "outbox totals are not as selected") }
            return LedgerOutboxTotals(
                target: try row[0].text(), pending: try row[1].integer(), parked: try row[2].integer(),
                oldestPendingMilliseconds: try row[3].optionalInteger())
        }
    }

    /// `prefix` restricted to the entries `filter` matches (its limit aside), after `binds`.
    private func filtered(
        _ prefix: String, _ filter: LedgerOutboxFilter, binds: [SQLValue] = [], returning: Bool = false,
        also condition: String? = nil
    ) -> SQLStatement {
        let p = self.backend.dialect.placeholder
        var conditions: [String] = condition.map { [$0] } ?? []
        var values = binds
        for (column, value) in [
            ("target", filter.target), ("notification_uuid", filter.notificationUUID), ("state", filter.state?.rawValue),
        ] {
            guard let value else { continue }
            values.append(.text(value))
            conditions.append("\(column) = \(p(values.count))")
        }
        var sql = prefix + (conditions.isEmpty ? "" : "\nWHERE " + conditions.joined(separator: " AND "))
        if returning { sql += "\nRETURNING notification_uuid" }
        return SQLStatement(sql: sql, binds: values)
    }

    /// An entry from a row of ``outboxColumns(_:)``, and whether its body is whole: `false` when the body refers to
    /// its notification's signed payload and the notification is gone (the entry's body is then empty).
    private static func entry(_ row: [SQLValue]) throws(LedgerError) -> (entry: LedgerOutboxEntry, complete: Bool) {
        guard row.count == 16, case .blob(let stored) = row[9] else {
            throw LedgerError(.incompatibleSchema, "an outbox entry is not as selected")
        }
        let restored = OutboxBody.restored(stored, signedPayload: try row[15].optionalText())
        guard let state = LedgerOutboxEntry.State(rawValue: try row[10].text()) else {
            throw LedgerError(.incompatibleSchema, "an outbox entry's state is neither pending nor parked")
        }
        let entry = LedgerOutboxEntry(
            target: try row[0].text(), notificationUUID: try row[1].text(),
            environment: AppStoreEnvironment(rawValue: try row[2].text()), bundleIdentifier: try row[3].text(),
            originalTransactionIdentifier: try row[4].optionalText(), notificationType: try row[5].text(),
            subtype: try row[6].optionalText(), signedMilliseconds: try row[7].integer(),
            createdMilliseconds: try row[8].integer(), body: restored ?? [], state: state, attempts: try row[11].integer(),
            nextAttemptMilliseconds: try row[12].integer(), deadlineMilliseconds: try row[13].integer(),
            lastError: restored == nil ? OutboxBody.missingPayloadError : try row[14].optionalText())
        return (entry, restored != nil)
    }

    /// Refuses a settlement whose text holds U+0000 (PostgreSQL cannot store it; the forwarder keeps failures to
    /// printable ASCII, so none reaches here).
    private static func refuseNULInOutbox(_ statement: SQLStatement) throws(LedgerError) {
        for case .text(let text) in statement.binds where ByteSearch.containsNUL(text) {
            throw LedgerError(.stringContainsNUL, "a string to be stored holds U+0000")
        }
    }
}
