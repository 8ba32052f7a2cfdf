import LedgerTestSupport
import PostgresNIO
@testable import ReceiptLedger
import Testing

/// The snapshot read PostgreSQL keeps prepared per connection must look ids up by index whatever the table's size
/// when it was planned: a plan made while the ledger was empty, kept as it grows, that filtered the id list over every
/// row of the app made each read cost more as customers came (issue 45).
@Suite("PostgreSQL snapshot plan")
struct PostgresSnapshotPlanTests {
    static let needsPostgres = ConditionTrait.enabled(
        if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage))

    /// Runs `body` on a connection of a ledger migrated in a fresh schema.
    static func onMigratedLedger(_ body: @escaping @Sendable (PostgresConnection) async throws -> Void) async throws {
        try await LedgerBackend.withPostgresSchema { configuration in
            let ledger = PostgresLedger(configuration: configuration, answeringLeaseLimit: LedgerBackend.testLeaseLimit, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(ledger) {
                try await ledger.migrate()
                try await ledger.client.withConnection { try await body($0) }
            }
        }
    }
    @Test(
        "the kept (generic) plan of both snapshot statements, made on empty tables, finds rows by all three key columns",
        Self.needsPostgres)
    func genericPlanUsesTheIndex() async throws {
        try await Self.onMigratedLedger { connection in
            // What PostgreSQL does with a prepared statement once it stops planning per execution.
            try await connection.query("SET plan_cache_mode = force_generic_plan", logger: LedgerBackend.quiet)
            for (name, sql, types) in [
                ("snapshot", LedgerStatements.postgresSnapshotSQL, "text, text, text[]"),
                ("recognise", LedgerStatements.postgresRecogniseSQL, "text, text, text[], text"),
            ] {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "PREPARE plan_\(name) (\(types)) AS \(sql)"), logger: LedgerBackend.quiet)
                let arguments = name == "snapshot" ? "'Production', 'b', ARRAY['1', '2']" : "'Production', 'b', ARRAY['1'], 'h'"
                var lines: [String] = []
                for try await row in try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE plan_\(name) (\(arguments))"), logger: LedgerBackend.quiet)
                {
                    lines.append(try row.decode(String.self))
                }
                let plan = lines.joined(separator: "\n")
                for table in ["receiptkit_transactions", "receiptkit_renewal_info", "receiptkit_original_transactions"] {
                    #expect(
                        lines.contains { $0.contains("Index") && $0.contains(" on \(table) ") },
                        "\(name): \(table) is not scanned by index:\n\(plan)")
                }
                let keyed = lines.filter { $0.contains("Index Cond") && $0.contains("original_transaction_id = receiptkit_wanted") }
                #expect(keyed.count == 3, "\(name): not every table is looked up by its original transaction id:\n\(plan)")
                #expect(!lines.contains { $0.contains("Filter") && $0.contains("original_transaction_id") }, "\(name):\n\(plan)")
        }
        }
    }

    @Test(
        "a customer's lookup (planned at each run, as the ledger runs it unprepared) reads every table by its index at an app's scale",
        Self.needsPostgres)
    func customerLookupUsesIndexes() async throws {
        try await Self.onMigratedLedger { connection in
            // 20,000 customers of one app, two transactions each, one receipt each, a token each; statistics read.
            for sql in [
                """
                INSERT INTO receiptkit_transactions (environment, transaction_id, original_transaction_id, bundle_id,
                    product_id, purchase_ms, expires_ms, cancellation_ms, receipt_hash, receipt_created_ms, purchase_json, source)
                SELECT 'Production', (i * 10 + k)::text, (i * 10)::text, 'b', 'p', 0, 0, NULL, 'h' || i, 0, '{}', 'receipt'
                FROM generate_series(1, 20000) AS i, generate_series(0, 1) AS k
                """,
                """
                INSERT INTO receiptkit_original_transactions (environment, bundle_id, original_transaction_id,
                    latest_receipt_hash, latest_receipt_created_ms)
                SELECT 'Production', 'b', (i * 10)::text, 'h' || i, 0 FROM generate_series(1, 20000) AS i
                """,
                """
                INSERT INTO receiptkit_app_account_tokens (environment, bundle_id, app_account_token, original_transaction_id)
                SELECT 'Production', 'b', 't' || i, (i * 10)::text FROM generate_series(1, 20000) AS i
                """,
                "ANALYZE",
            ] {
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: LedgerBackend.quiet)
            }
            // As the ledger's connections plan: one generic plan per run, from the statistics of the moment.
            try await connection.query("SET plan_cache_mode = force_generic_plan", logger: LedgerBackend.quiet)
            let statements = LedgerStatements(dialect: .postgres)
            for (name, statement) in [
                ("by_id", statements.selectCustomer(environment: .production, bundleIdentifier: "b", transactionIdentifier: "1")),
                ("by_token", statements.selectCustomer(environment: .production, bundleIdentifier: "b", appAccountToken: "t")),
            ] {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "PREPARE customer_\(name) (text, text, text) AS \(statement.sql)"),
                    logger: LedgerBackend.quiet)
                var lines: [String] = []
                for try await row in try await connection.query(
                    PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE customer_\(name) ('Production', 'b', '1001')"), logger: LedgerBackend.quiet)
                {
                    lines.append(try row.decode(String.self))
                }
                let plan = lines.joined(separator: "\n")
                #expect(!plan.contains("Seq Scan"), "\(name):\n\(plan)")
                #expect(plan.contains("receiptkit_original_transactions_by_receipt"), "\(name):\n\(plan)")
                // Every index condition names its key column, not only the app's (a filter over the app's rows).
                #expect(!plan.contains("Filter: (transaction_id ="), "\(name):\n\(plan)")
            }
        }
    }

    @Test(
        "the ledger's connections keep the snapshot read's plan: planned once, not on every read",
        Self.needsPostgres)
    func planKeptPerConnection() async throws {
        try await Self.onMigratedLedger { connection in
            let binds: [SQLValue] = [.text("Production"), .text("b"), .texts(["1", "2"])]
            for _ in 0..<8 {
                for try await _ in try await connection.execute(
                    PostgresSnapshotStatement(binds: binds), logger: LedgerBackend.quiet) {}
        }
        let rows = try await connection.query(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = \(PostgresSnapshotStatement.name)",
            logger: LedgerBackend.quiet)
        var plans: [(Int64, Int64)] = []
        for try await (generic, custom) in rows.decode((Int64, Int64).self) { plans.append((generic, custom)) }
        // Left to choose, PostgreSQL plans every one of these reads anew (8 custom plans, 0 generic).
        #expect(plans.count == 1)
        #expect(plans.first?.1 == 0, "custom plans: \(plans)")
        #expect((plans.first?.0 ?? 0) >= 1, "generic plans: \(plans)")
        }
    }

    @Test(
        "a customer's notifications (planned at each run, as the ledger runs it unprepared) are read by their index at an app's scale",
        Self.needsPostgres)
    func notificationsPlanAtScale() async throws {
        try await Self.onMigratedLedger { connection in
            // 20,000 notifications of one app, one per customer; statistics read.
            for sql in [
                """
                INSERT INTO receiptkit_notifications (notification_uuid, environment, bundle_id, notification_type, subtype,
                    signed_ms, received_ms, payload_json, original_transaction_id)
                SELECT 'u' || i, 'Production', 'b', 'DID_RENEW', NULL, i, i, '{}', (i * 10)::text
                FROM generate_series(1, 20000) AS i
                """,
                "ANALYZE",
            ] {
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: LedgerBackend.quiet)
            }
            // As the ledger's connections plan: one generic plan per run, from the statistics of the moment.
            try await connection.query("SET plan_cache_mode = force_generic_plan", logger: LedgerBackend.quiet)
            let statement = LedgerStatements(dialect: .postgres).selectNotifications(
                environment: .production, bundleIdentifier: "b", ids: ["10", "20"], limit: 200)
            try await connection.query(
                PostgresQuery(unsafeSQL: "PREPARE notices (text, text, text, text) AS \(statement.sql)"), logger: LedgerBackend.quiet)
            var lines: [String] = []
            for try await row in try await connection.query(
                PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE notices ('Production', 'b', '10', '20')"), logger: LedgerBackend.quiet)
            {
                lines.append(try row.decode(String.self))
            }
            let plan = lines.joined(separator: "\n")
            #expect(plan.contains("receiptkit_notifications_by_original"), "\(plan)")
            #expect(!plan.contains("receiptkit_notifications_by_app"), "\(plan)")
            #expect(!plan.contains("Seq Scan"), "\(plan)")
        }
    }
}
