import Foundation
import LedgerTestSupport
import NIOConcurrencyHelpers
import PostgresNIO
@testable import ReceiptLedger
import Testing

/// Change notices per statement (schema version 6): a group commit's batch announces the original transaction ids it
/// wrote in one notification, not one per row, and the listener forgets each id it names.
@Suite("PostgreSQL change notifications")
struct PostgresChangeNotificationTests {
    @Test(
        "one batch of three receipts is one notification naming their original transaction ids",
        .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func oneNotificationPerBatch() async throws {
        let receipts = (0..<3).map { index in
            ReceiptBatchTests.entry("notice-\(index)", createdDay: 10, [
                ServiceTestPKI.purchase("\(700 + index)", original: "\(700 + index)", day: 1),
                ServiceTestPKI.purchase("\(800 + index)", original: "\(700 + index)", day: 31),
            ])
        }
        try await LedgerBackend.withPostgresSchema { configuration in
            let ledger = PostgresLedger(configuration: configuration, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(ledger) {
                try await ledger.migrate()
                #expect(try await ledger.schemaVersion() == 6)
                let heard = NIOLockedValueBox<[String]>([])
                let listening = NIOLockedValueBox(false)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await ledger.client.withConnection { connection in
                            try await connection.listen(on: LedgerMigration.changeChannel) { notifications in
                                listening.withLockedValue { $0 = true }
                                for try await notification in notifications {
                                    heard.withLockedValue { $0.append(notification.payload) }
                                }
                            }
                        }
                    }
                    for _ in 0..<1_000 where !listening.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                    _ = try await ReceiptBatchTests.batch(receipts, in: ledger)
                    for _ in 0..<1_000 where heard.withLockedValue({ $0 }).isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                    // A later write, heard after the batch's notifications: every one of those has arrived by then.
                    try await ledger.record(
                        ReceiptBatchTests.entry("later", createdDay: 11, [ServiceTestPKI.purchase("900", original: "900", day: 1)]))
                    for _ in 0..<1_000 where !heard.withLockedValue({ $0 }).contains("900") {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    group.cancelAll()
                }
                // The transactions' statement and the records' name the same ids: PostgreSQL sends that once.
                #expect(heard.withLockedValue { $0 } == ["700,701,702", "900"])
            }
        }
    }

    @Test("the listener forgets every id a notification names, and everything for `*`")
    func listenerSplitsPayloads() throws {
        let cache = LedgerSnapshotCache(enabled: true)
        let query = LedgerQuery(environment: .production, bundleIdentifier: "b", originalTransactionIdentifiers: ["701"])
        let other = LedgerQuery(environment: .production, bundleIdentifier: "b", originalTransactionIdentifiers: ["999"])
        let snapshot = LedgerSnapshot(transactions: [], renewalInfo: [])
        cache.keep(snapshot, for: query, ticket: try #require(cache.ticket()))
        cache.keep(snapshot, for: other, ticket: try #require(cache.ticket()))
        PostgresChangeListener.heard("700,701,702", by: cache)
        #expect(cache.snapshot(for: query) == nil)
        #expect(cache.snapshot(for: other) == snapshot)
        PostgresChangeListener.heard("*", by: cache)
        #expect(cache.snapshot(for: other) == nil)
    }
}
