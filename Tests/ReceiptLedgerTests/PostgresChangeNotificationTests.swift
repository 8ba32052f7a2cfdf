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
        "one batch of three receipts is one notification naming their original transaction ids; updates are announced too",
        .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func oneNotificationPerBatch() async throws {
        let receipts = (0..<3).map { index in
            ReceiptBatchTests.entry("notice-\(index)", createdDay: 10, [
                ServiceTestPKI.purchase("\(9_450_700 + index)", original: "\(9_450_700 + index)", day: 1),
                ServiceTestPKI.purchase("\(9_450_800 + index)", original: "\(9_450_700 + index)", day: 31),
            ])
        }
        try await LedgerBackend.withPostgresSchema { configuration in
            let ledger = PostgresLedger(configuration: configuration, answeringLeaseLimit: LedgerBackend.testLeaseLimit, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(ledger) {
                try await ledger.migrate()
                #expect(try await ledger.schemaVersion() >= LedgerMigration.changeNotificationsVersion)
                let heard = NIOLockedValueBox<[String]>([])
                let listening = NIOLockedValueBox(false)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await ledger.client.withConnection { connection in
                            try await connection.listen(on: LedgerMigration.changeChannel) { notifications in
                                listening.withLockedValue { $0 = true }
                                for try await notification in notifications {
                                    // The channel is the database's: tests running beside this one, in other schemas,
                                    // announce their ids on it too.
                                    let ids = notification.payload.split(separator: ",")
                                    guard ids.allSatisfy({ $0.hasPrefix("9450") }) else { continue }
                                    heard.withLockedValue { $0.append(notification.payload) }
                                }
                            }
                        }
                    }
                    for _ in 0..<1_000 where !listening.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                    _ = try await ReceiptBatchTests.batch(receipts, in: ledger)
                    for _ in 0..<1_000 where heard.withLockedValue({ $0 }).isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                    // A newer receipt of customer 9450701: its rows replace the stored ones (ON CONFLICT DO UPDATE fires the
                    // update's statement trigger), its own new row is inserted.
                    try await ledger.record(
                        ReceiptBatchTests.entry("renewed", createdDay: 12, [
                            ServiceTestPKI.purchase("9450701", original: "9450701", day: 1),
                            ServiceTestPKI.purchase("9450801", original: "9450701", day: 31),
                            ServiceTestPKI.purchase("9450811", original: "9450701", day: 61),
                        ]))
                    // A later write, heard after the others' notifications: every one of those has arrived by then.
                    try await ledger.record(
                        ReceiptBatchTests.entry("later", createdDay: 11, [ServiceTestPKI.purchase("9450900", original: "9450900", day: 1)]))
                    for _ in 0..<1_000 where !heard.withLockedValue({ $0 }).contains("9450900") {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    group.cancelAll()
                }
                // The transactions' statement and the records' name the same ids: PostgreSQL sends that once (and
                // the renewal's inserts and updates, all of customer 9450701, once).
                #expect(heard.withLockedValue { $0 } == ["9450700,9450701,9450702", "9450701", "9450900"])
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
