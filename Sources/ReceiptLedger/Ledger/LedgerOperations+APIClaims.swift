extension LedgerOperations {
    /// The scope of a customer's row, and of an app's (ids are never `app`: they are prefixed).
    private static func scope(_ originalTransactionIdentifier: String) -> String { "t:" + originalTransactionIdentifier }
    private static var appScope: String { "app" }
    /// Rows past their end by more than this are swept by the next claim that ends.
    private static var sweepAfterMilliseconds: Int64 { 86_400_000 }

    func claimAPIRefresh(_ claim: LedgerAPIClaim) async throws(LedgerError) -> LedgerAPIClaim.Answer {
        let p = self.backend.dialect.placeholder
        let app: [SQLValue] = [.text(claim.environment.rawValue), .text(claim.bundleIdentifier)]
        let until = claim.atMilliseconds.addingReportingOverflow(claim.leaseMilliseconds)
        let paused = SQLStatement(
            sql: """
                SELECT until_ms FROM receiptkit_api_claims
                WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND scope = \(p(3)) AND until_ms > \(p(4))
                """,
            binds: app + [.text(Self.appScope), .integer(claim.atMilliseconds)])
        // Taken only where no live row stands: two instances claiming at once meet on the row's lock, and the
        // second finds the first's lease.
        let take = SQLStatement(
            sql: """
                INSERT INTO receiptkit_api_claims (environment, bundle_id, scope, kind, holder, until_ms)
                VALUES (\(p(1)), \(p(2)), \(p(3)), 'refresh', \(p(4)), \(p(5)))
                ON CONFLICT (environment, bundle_id, scope) DO UPDATE
                    SET kind = 'refresh', holder = EXCLUDED.holder, until_ms = EXCLUDED.until_ms
                    WHERE receiptkit_api_claims.until_ms <= \(p(6))
                RETURNING holder
                """,
            binds: app + [
                .text(Self.scope(claim.originalTransactionIdentifier)), .text(claim.holder),
                .integer(until.overflow ? .max : until.partialValue), .integer(claim.atMilliseconds),
            ])
        let standing = SQLStatement(
            sql: """
                SELECT kind, until_ms FROM receiptkit_api_claims
                WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND scope = \(p(3))
                """,
            binds: app + [.text(Self.scope(claim.originalTransactionIdentifier))])
        return try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session -> LedgerAPIClaim.Answer in
                if let row = try await session.run(paused).first, case .integer(let end)? = row.first {
                    return .paused(untilMilliseconds: end)
                }
                if !(try await session.run(take)).isEmpty { return .granted }
                guard let row = try await session.run(standing).first, row.count == 2,
                    case .text(let kind) = row[0], case .integer(let end) = row[1]
                else { return .granted }  // gone meanwhile (swept): nobody holds it
                return kind == "failed" ? .backingOff(untilMilliseconds: end) : .heldElsewhere(untilMilliseconds: end)
            }
        }
    }

    func endAPIRefresh(_ claim: LedgerAPIClaim, failedUntilMilliseconds: Int64?) async throws(LedgerError) {
        let p = self.backend.dialect.placeholder
        let row: [SQLValue] = [
            .text(claim.environment.rawValue), .text(claim.bundleIdentifier),
            .text(Self.scope(claim.originalTransactionIdentifier)), .text(claim.holder),
        ]
        let end: SQLStatement
        if let failedUntilMilliseconds {
            end = SQLStatement(
                sql: """
                    UPDATE receiptkit_api_claims SET kind = 'failed', until_ms = \(p(5))
                    WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND scope = \(p(3)) AND holder = \(p(4))
                    """,
                binds: row + [.integer(failedUntilMilliseconds)])
        } else {
            end = SQLStatement(
                sql: """
                    DELETE FROM receiptkit_api_claims
                    WHERE environment = \(p(1)) AND bundle_id = \(p(2)) AND scope = \(p(3)) AND holder = \(p(4))
                        AND kind = 'refresh'
                    """,
                binds: row)
        }
        let cutoff = claim.atMilliseconds.subtractingReportingOverflow(Self.sweepAfterMilliseconds)
        let sweep = SQLStatement(
            sql: "DELETE FROM receiptkit_api_claims WHERE until_ms < \(p(1))",
            binds: [.integer(cutoff.overflow ? .min : cutoff.partialValue)])
        _ = try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in
                _ = try await session.run(end)
                _ = try await session.run(sweep)
                return true
            }
        }
    }

    func pauseAPIApp(
        environment: AppStoreEnvironment, bundleIdentifier: String, untilMilliseconds: Int64
    ) async throws(LedgerError) {
        let p = self.backend.dialect.placeholder
        let pause = SQLStatement(
            sql: """
                INSERT INTO receiptkit_api_claims (environment, bundle_id, scope, kind, holder, until_ms)
                VALUES (\(p(1)), \(p(2)), \(p(3)), 'paused', '', \(p(4)))
                ON CONFLICT (environment, bundle_id, scope) DO UPDATE
                    SET kind = 'paused', until_ms = GREATEST(receiptkit_api_claims.until_ms, EXCLUDED.until_ms)
                """,
            binds: [.text(environment.rawValue), .text(bundleIdentifier), .text(Self.appScope), .integer(untilMilliseconds)])
        _ = try await self.guarded {
            try await self.backend.transaction(exclusive: false) { session in
                _ = try await session.run(pause)
                return true
            }
        }
    }
}
