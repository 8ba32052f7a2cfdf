import LedgerTestSupport
import PostgresNIO
@testable import ReceiptLedger
import Testing

/// The snapshot read PostgreSQL keeps prepared per connection must look ids up by index whatever the table's size
/// when it was planned: a plan made while the ledger was empty, kept as it grows, that filtered the id list over every
/// row of the app made each read cost more as customers came (issue 45).
@Suite("PostgreSQL snapshot plan")
struct PostgresSnapshotPlanTests {
    @Test(
        "the kept (generic) plan of both snapshot statements, made on empty tables, finds rows by all three key columns",
        .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func genericPlanUsesTheIndex() async throws {
        try await LedgerBackend.withPostgresSchema { configuration in
            let ledger = PostgresLedger(configuration: configuration, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(ledger) {
                try await ledger.migrate()
                try await ledger.client.withConnection { connection in
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
                            #expect(plan.contains("on \(table)"), "\(name): \(table) is not scanned by index:\n\(plan)")
                        }
                        let keyed = lines.filter { $0.contains("Index Cond") && $0.contains("original_transaction_id = receiptkit_wanted") }
                        #expect(keyed.count == 3, "\(name): not every table is looked up by its original transaction id:\n\(plan)")
                        #expect(!lines.contains { $0.contains("Filter") && $0.contains("original_transaction_id") }, "\(name):\n\(plan)")
                    }
                }
            }
        }
    }
}
