extension LedgerOperations {
    /// The scope of an app's backfill lease in `receiptkit_api_claims` (customers' scopes are prefixed `t:`).
    private static var backfillScope: String { "backfill" }

    func notificationBackfillState(
        environment: AppStoreEnvironment, bundleIdentifier: String
    ) async throws(LedgerError) -> LedgerBackfillState {
        let p = self.backend.dialect.placeholder
        let app: [SQLValue] = [.text(environment.rawValue), .text(bundleIdentifier)]
        let cursor = SQLStatement(
            sql: """
                SELECT covered_until_ms, windows FROM receiptkit_notification_backfill
                WHERE environment = \(p(1)) AND bundle_id = \(p(2))
                """,
            binds: app)
        // The app's index (environment, bundle_id, signed_ms) answers it from its last entry.
        let newest = SQLStatement(
            sql: """
                SELECT MAX(signed_ms) FROM receiptkit_notifications WHERE environment = \(p(1)) AND bundle_id = \(p(2))
                """,
            binds: app)
        let rows = try await self.guarded {
            try await self.backend.read { session in
                (try await session.run(cursor), try await session.run(newest))
            }
        }
        var state = LedgerBackfillState()
        if let row = rows.0.first {
            guard row.count == 2, case .integer(let covered) = row[0], case .integer(let windows) = row[1] else {
                throw LedgerError(.incompatibleSchema, "a notification backfill cursor is not as written")
            }
            (state.coveredUntilMilliseconds, state.windows) = (covered, windows)
        }
        switch rows.1.first?.first {
        case .integer(let signed)?: state.newestNotificationMilliseconds = signed
        case .null?, nil: break
        default: throw LedgerError(.incompatibleSchema, "a stored notification's signedDate is not an integer")
        }
        return state
    }

    func recordNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError) {
        let dialect = self.backend.dialect
        let p = dialect.placeholder
        // A window that ends earlier than one recorded before (run by hand, from a date) leaves the cursor where it is.
        let upsert = SQLStatement(
            sql: """
                INSERT INTO receiptkit_notification_backfill (environment, bundle_id, covered_until_ms, windows, updated_ms)
                VALUES (\(p(1)), \(p(2)), \(p(3)), 1, \(p(4)))
                ON CONFLICT (environment, bundle_id) DO UPDATE SET
                    covered_until_ms = \(dialect.greatest)(receiptkit_notification_backfill.covered_until_ms, EXCLUDED.covered_until_ms),
                    windows = receiptkit_notification_backfill.windows + 1,
                    updated_ms = EXCLUDED.updated_ms
                """,
            binds: [
                .text(environment.rawValue), .text(bundleIdentifier), .integer(coveredUntilMilliseconds),
                .integer(atMilliseconds),
            ])
        _ = try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in
                _ = try await session.run(upsert)
                return true
            }
        }
    }

    func startNotificationBackfill(
        environment: AppStoreEnvironment, bundleIdentifier: String, coveredUntilMilliseconds: Int64,
        atMilliseconds: Int64
    ) async throws(LedgerError) {
        let p = self.backend.dialect.placeholder
        // Only where no cursor stands: a cursor, once there, moves with completed windows alone.
        let insert = SQLStatement(
            sql: """
                INSERT INTO receiptkit_notification_backfill (environment, bundle_id, covered_until_ms, windows, updated_ms)
                VALUES (\(p(1)), \(p(2)), \(p(3)), 0, \(p(4)))
                ON CONFLICT (environment, bundle_id) DO NOTHING
                """,
            binds: [
                .text(environment.rawValue), .text(bundleIdentifier), .integer(coveredUntilMilliseconds),
                .integer(atMilliseconds),
            ])
        _ = try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in
                _ = try await session.run(insert)
                return true
            }
        }
    }

    func leaseNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) -> Bool {
        let p = self.backend.dialect.placeholder
        let until = lease.atMilliseconds.addingReportingOverflow(lease.leaseMilliseconds)
        // Taken where no live lease of another holder stands; the holder's own is renewed. Two instances taking it
        // at once meet on the row's lock, and the second finds the first's lease.
        let take = SQLStatement(
            sql: """
                INSERT INTO receiptkit_api_claims (environment, bundle_id, scope, kind, holder, until_ms)
                VALUES (\(p(1)), \(p(2)), \(p(3)), 'backfill', \(p(4)), \(p(5)))
                ON CONFLICT (environment, bundle_id, scope) DO UPDATE
                    SET holder = EXCLUDED.holder, until_ms = EXCLUDED.until_ms
                    WHERE receiptkit_api_claims.until_ms <= \(p(6)) OR receiptkit_api_claims.holder = EXCLUDED.holder
                RETURNING holder
                """,
            binds: [
                .text(lease.environment.rawValue), .text(lease.bundleIdentifier), .text(Self.backfillScope),
                .text(lease.holder), .integer(until.overflow ? .max : until.partialValue), .integer(lease.atMilliseconds),
            ])
        return try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in
                !(try await session.run(take)).isEmpty
            }
        }
    }

    func endNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) {
        let p = self.backend.dialect.placeholder
        let end = SQLStatement(
            sql: """
                DELETE FROM receiptkit_api_claims
                WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND scope = \(p(3)) AND holder = \(p(4))
                """,
            binds: [
                .text(lease.environment.rawValue), .text(lease.bundleIdentifier), .text(Self.backfillScope),
                .text(lease.holder),
            ])
        _ = try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in
                _ = try await session.run(end)
                return true
            }
        }
    }
}
