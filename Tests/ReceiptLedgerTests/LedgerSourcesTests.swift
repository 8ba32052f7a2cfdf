import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// What taught the ledger each row (receipts, notifications, the App Store Server API), the newest receipt kept per
/// original transaction id whatever signed data says, the API refresh time, and the migration that brings existing
/// ledgers there — on every backend.
@Suite("Ledger sources")
struct LedgerSourcesTests {
    static let query = LedgerQuery(environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"])

    static func signed(_ id: String, signed: Int64, cancelled: Int64? = nil) -> LedgerTransaction {
        LedgerTransaction(
            environment: .production, bundleIdentifier: "com.example.app", transactionIdentifier: id,
            originalTransactionIdentifier: "1000", productIdentifier: "com.example.monthly",
            purchaseDateMilliseconds: signed, expiresDateMilliseconds: signed + 1000, cancellationDateMilliseconds: cancelled,
            receiptHash: "jws:\(id)-\(signed)", receiptCreationMilliseconds: signed,
            json: Array(#"{"transaction_id":"\#(id)"}"#.utf8), source: .notification)
    }

    static func renewal(_ updated: Int64) -> LedgerRenewalInfo {
        LedgerRenewalInfo(
            environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifier: "1000",
            productIdentifier: "com.example.monthly", updatedMilliseconds: updated,
            json: Array(#"{"original_transaction_id":"1000"}"#.utf8))
    }

    static func refresh(_ query: LedgerQuery, _ milliseconds: Int64) -> LedgerRefresh {
        LedgerRefresh(query, at: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    @Test("signed data replaces a receipt's row but never which receipt is the newest", arguments: LedgerBackend.available)
    func signedDataKeepsTheLatestReceipt(backend: LedgerBackend) async throws {
        let older = LedgerContractTests.entry(
            ServiceTestPKI.receipt(createdDay: 10, purchases: [ServiceTestPKI.purchase("1000", original: "1000", day: 1)]),
            tag: "older")
        let newer = LedgerContractTests.entry(
            ServiceTestPKI.receipt(createdDay: 20, purchases: [ServiceTestPKI.purchase("1000", original: "1000", day: 1)]),
            tag: "newer")
        try await backend.withLedger { ledger in
            try await ledger.record(newer)
            try await ledger.record(older)
            // A refund of 1000 and a renewal 1001, signed after both receipts.
            try await ledger.apply(LedgerUpdate(
                source: .notification,
                transactions: [Self.signed("1000", signed: 1_700_000_000_000, cancelled: 1_700_000_000_000),
                               Self.signed("1001", signed: 1_700_000_100_000)],
                renewalInfo: [Self.renewal(1_700_000_100_000)]))
            let snapshot = try await ledger.snapshot(matching: Self.query)
            #expect(snapshot.transactions.map(\.transactionIdentifier) == ["1001", "1000"])
            #expect(snapshot.transactions.map(\.source) == [.notification, .notification])
            #expect(snapshot.transactions.last?.cancellationDateMilliseconds == 1_700_000_000_000)
            #expect(snapshot.renewalInfo.map(\.source) == [.notification])
            #expect(snapshot.latestReceiptHash == newer.hash)
            #expect(snapshot.originalTransactions.map(\.latestReceiptCreationMilliseconds) == [newer.creationMilliseconds])
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "1000") == nil)
        }
    }

    @Test("an API refresh is recorded per original transaction id; an earlier one never replaces a later one",
          arguments: LedgerBackend.available)
    func apiRefresh(backend: LedgerBackend) async throws {
        let query = LedgerQuery(environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000", "2000"])
        try await backend.withLedger { ledger in
            // The same transaction twice in one update (two pages of history): the version signed last is kept.
            try await ledger.apply(LedgerUpdate(
                source: .api,
                transactions: [Self.signed("1000", signed: 2_000), Self.signed("1000", signed: 1_000)],
                renewalInfo: [Self.renewal(5), Self.renewal(3)],
                refresh: Self.refresh(query, 50_000)))
            var snapshot = try await ledger.snapshot(matching: query)
            #expect(snapshot.transactions.map(\.receiptHash) == ["jws:1000-2000"])
            #expect(snapshot.transactions.map(\.source) == [.api])
            #expect(snapshot.renewalInfo.map(\.updatedMilliseconds) == [5])
            #expect(snapshot.renewalInfo.map(\.source) == [.api])
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "1000") == 50_000)
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "2000") == 50_000)
            #expect(snapshot.latestReceiptHash == nil)

            try await ledger.apply(LedgerUpdate(source: .api, refresh: Self.refresh(query, 40_000)))
            let receipt = LedgerContractTests.entry(
                ServiceTestPKI.receipt(purchases: [ServiceTestPKI.purchase("2001", original: "2000", day: 1)]), tag: "api")
            try await ledger.record(receipt)
            snapshot = try await ledger.snapshot(matching: query)
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "1000") == 50_000)
            // A receipt sets its newest-receipt columns only: the refresh time stays.
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "2000") == 50_000)
            #expect(snapshot.latestReceiptHash == receipt.hash)
            #expect(snapshot.transactions.first { $0.transactionIdentifier == "2001" }?.source == .receipt)

            try await ledger.apply(LedgerUpdate(source: .api, refresh: Self.refresh(query, 60_000)))
            snapshot = try await ledger.snapshot(matching: query)
            #expect(snapshot.apiRefreshedMilliseconds(originalTransactionIdentifier: "1000") == 60_000)
        }
    }

    @Test("U+0000 in an update is refused before any write", arguments: LedgerBackend.available)
    func nulInAnUpdate(backend: LedgerBackend) async throws {
        var refused = Self.signed("1000", signed: 1)
        refused.productIdentifier = "com.example\u{0}"
        let row = refused
        try await backend.withLedger { ledger in
            await #expect(throws: LedgerError(.stringContainsNUL, "")) {
                try await ledger.apply(LedgerUpdate(source: .api, transactions: [Self.signed("0999", signed: 1), row]))
            }
            let snapshot = try await ledger.snapshot(matching: Self.query)
            #expect(snapshot.transactions.isEmpty)
        }
    }

    @Test("migration 3: sources from the rows' hashes, the newest receipt per original transaction id from receipts' rows",
          arguments: LedgerBackend.available)
    func migrationFromVersion2(backend: LedgerBackend) async throws {
        try await backend.withLedger(migrated: false) { ledger in
            let backendLedger = try #require(ledger as? any BackendLedger)
            try await backendLedger.migrate(upTo: 2)
            #expect(try await ledger.schemaVersion() == 2)
            // A version 2 ledger: two receipts carried 1000 and 1001, a notification replaced 1002's row (a receipt
            // had carried it) and taught 3000.
            func row(_ id: String, _ original: String, _ hash: String, _ created: Int) -> String {
                """
                INSERT INTO receiptkit_transactions (environment, transaction_id, original_transaction_id, bundle_id,
                    product_id, purchase_ms, expires_ms, cancellation_ms, receipt_hash, receipt_created_ms, purchase_json)
                VALUES ('Production', '\(id)', '\(original)', 'com.example.app', 'com.example.monthly', \(id), NULL, NULL,
                    '\(hash)', \(created), '{}')
                """
            }
            try await backendLedger.execute([
                row("1000", "1000", "aaaa", 10), row("1001", "1000", "bbbb", 20), row("1002", "1000", "jws:cccc", 30),
                row("3000", "3000", "jws:dddd", 30), row("4000", "4000", "aaaa", 10),
                """
                INSERT INTO receiptkit_renewal_info (environment, bundle_id, original_transaction_id, product_id, updated_ms,
                    renewal_json)
                VALUES ('Production', 'com.example.app', '1000', 'com.example.monthly', 5, '{}')
                """,
            ])
            try await ledger.migrate()
            #expect(try await ledger.schemaVersion() == LedgerSchemaVersion.latest)
            let query = LedgerQuery(
                environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000", "3000", "4000"])
            let snapshot = try await ledger.snapshot(matching: query)
            let sources = Dictionary(uniqueKeysWithValues: snapshot.transactions.map { ($0.transactionIdentifier, $0.source) })
            #expect(sources == ["1000": .receipt, "1001": .receipt, "1002": .notification, "3000": .notification, "4000": .receipt])
            #expect(snapshot.renewalInfo.map(\.source) == [.notification])
            #expect(snapshot.originalTransactions.map(\.originalTransactionIdentifier) == ["1000", "4000"])
            #expect(snapshot.originalTransactions.map(\.latestReceiptHash) == ["bbbb", "aaaa"])
            #expect(snapshot.originalTransactions.map(\.latestReceiptCreationMilliseconds) == [20, 10])
            #expect(snapshot.latestReceiptHash == "bbbb")
        }
    }
}

extension BackendLedger {
    /// Applies the migrations up to `version` only.
    func migrate(upTo version: Int) async throws(LedgerError) {
        try await self.operations.migrate(upTo: version)
    }

    /// Runs `sql`, in one transaction.
    func execute(_ sql: [String]) async throws {
        _ = try await self.operations.backend.transaction(exclusive: false) { session in
            for statement in sql {
                _ = try await session.run(SQLStatement(sql: statement, binds: []))
            }
            return 0
        }
    }
}
