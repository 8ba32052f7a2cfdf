import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// One suite, every backend: the same expectations of SQLite (memory and file) and PostgreSQL.
@Suite("Ledger contract")
struct LedgerContractTests {
    static let seen = Date(timeIntervalSince1970: 1_750_000_000)

    static func entry(
        _ receipt: AppReceipt, tag: String, environment: AppStoreEnvironment = .production
    ) -> LedgerReceipt {
        LedgerReceipt(receipt, bytes: Array("receipt \(tag)".utf8), environment: environment, seenAt: Self.seen)
    }

    /// Skipped, with the reason, in a clone without a server; fails in CI (RECEIPTKIT_REQUIRE_POSTGRES=1) when the
    /// server is missing, so the PostgreSQL cases of every test here can never silently drop out.
    @Test(
        "PostgreSQL is among the backends",
        .enabled(if: LedgerBackend.postgresURL != nil || LedgerBackend.postgresRequired, Comment(rawValue: LedgerBackend.postgresSkipMessage))
    )
    func postgresIsExercised() {
        #expect(LedgerBackend.available.contains(.postgres), "RECEIPTKIT_REQUIRE_POSTGRES=1 but RECEIPTKIT_TEST_POSTGRES_URL is unset")
    }

    @Test("migrations are versioned and idempotent", arguments: LedgerBackend.available)
    func migrations(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            #expect(try await ledger.schemaVersion() == LedgerSchemaVersion.latest)
            try await ledger.migrate()
            try await ledger.migrate()
            #expect(try await ledger.schemaVersion() == LedgerSchemaVersion.latest)
        }
    }

    @Test("the same receipt recorded twice changes nothing", arguments: LedgerBackend.available)
    func idempotent(backend: LedgerBackend) async throws {
        let receipt = ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase("1001", original: "1000", day: 31),
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
            ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.coins", day: 5, subscription: false),
        ])
        let entry = Self.entry(receipt, tag: "a")
        try await backend.withLedger { ledger in
            let first = try await ledger.record(entry)
            #expect(first == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 3))
            let query = LedgerQuery(receipt: entry)
            let before = try await ledger.transactions(matching: query)
            let second = try await ledger.record(entry)
            #expect(second == LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0))
            let after = try await ledger.transactions(matching: query)
            #expect(before == after)
            #expect(after.map(\.transactionIdentifier) == ["1001", "2000", "1000"])  // newest purchase first
            #expect(after.allSatisfy { $0.receiptHash == entry.hash })
            #expect(try await ledger.receipt(hash: entry.hash) == entry.bytes)
            #expect(try await ledger.receipt(hash: String(repeating: "0", count: 64)) == nil)
            // The stored JSON is the purchase's verifyReceipt object.
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(after[0].json)) as? [String: Any])
            #expect(object["transaction_id"] as? String == "1001")
            #expect(object["original_transaction_id"] as? String == "1000")
        }
    }

    @Test("a transaction keeps the version from the newest receipt, whatever the order", arguments: LedgerBackend.available)
    func newestReceiptWins(backend: LedgerBackend) async throws {
        var cancelled = ServiceTestPKI.purchase("1000", original: "1000", day: 1)
        cancelled.cancellationDate = Date(timeIntervalSince1970: 1_680_000_000)
        let older = Self.entry(
            ServiceTestPKI.receipt(createdDay: 10, purchases: [ServiceTestPKI.purchase("1000", original: "1000", day: 1)]),
            tag: "older")
        let newer = Self.entry(ServiceTestPKI.receipt(createdDay: 20, purchases: [cancelled]), tag: "newer")
        for order in [[older, newer], [newer, older]] {
            try await backend.withLedger { ledger in
                for entry in order { try await ledger.record(entry) }
                let rows = try await ledger.transactions(matching: LedgerQuery(receipt: newer))
                #expect(rows.count == 1)
                #expect(rows.first?.receiptHash == newer.hash)
                #expect(rows.first?.cancellationDateMilliseconds == 1_680_000_000_000)
            }
        }
    }

    @Test("concurrent overlapping receipts never lose or duplicate a transaction", arguments: LedgerBackend.available)
    func concurrentOverlap(backend: LedgerBackend) async throws {
        // Receipt k carries renewals 0...k of one subscription: every pair overlaps.
        let entries = (0..<24).map { k in
            Self.entry(
                ServiceTestPKI.receipt(
                    createdDay: 100 + k,
                    purchases: (0...k).map { ServiceTestPKI.purchase("\(5000 + $0)", original: "5000", day: 30 * $0) }),
                tag: "overlap-\(k)")
        }
        try await backend.withLedger { ledger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for entry in entries.shuffled() + entries.shuffled() {
                    group.addTask { try await ledger.record(entry) }
                }
                try await group.waitForAll()
            }
            let rows = try await ledger.transactions(matching: LedgerQuery(receipt: entries[23]))
            #expect(rows.map(\.transactionIdentifier) == (0..<24).reversed().map { "\(5000 + $0)" })
            // Each row comes from the newest receipt that carries it: the last one carries them all.
            #expect(rows.allSatisfy { $0.receiptHash == entries[23].hash })
        }
    }

    @Test("queries span many original transaction ids and stay within one app and environment", arguments: LedgerBackend.available)
    func manyIdentifiers(backend: LedgerBackend) async throws {
        let purchases = (0..<450).map { ServiceTestPKI.purchase("\(10_000 + $0)", original: "\(10_000 + $0)", day: $0 % 300) }
        let entry = Self.entry(ServiceTestPKI.receipt(purchases: purchases), tag: "many")
        let otherApp = Self.entry(
            ServiceTestPKI.receipt(bundle: "com.example.other", createdDay: 200, purchases: [purchases[0]]), tag: "other")
        let sandbox = Self.entry(
            ServiceTestPKI.receipt(createdDay: 200, purchases: [purchases[1]]), tag: "sandbox", environment: .sandbox)
        try await backend.withLedger { ledger in
            #expect(try await ledger.record(entry).transactionsWritten == 450)
            try await ledger.record(otherApp)
            try await ledger.record(sandbox)
            let rows = try await ledger.transactions(matching: LedgerQuery(receipt: entry))
            #expect(rows.count == 450)
            #expect(Set(rows.map(\.transactionIdentifier)).count == 450)
            #expect(rows.allSatisfy { $0.bundleIdentifier == "com.example.app" && $0.environment == .production })
            // The same transaction id in another app or environment is another row, never a replacement.
            #expect(rows.allSatisfy { $0.receiptHash == entry.hash })
            let otherRows = try await ledger.transactions(matching: LedgerQuery(receipt: otherApp))
            #expect(otherRows.map(\.receiptHash) == [otherApp.hash])
            let sandboxRows = try await ledger.transactions(matching: LedgerQuery(receipt: sandbox))
            #expect(sandboxRows.map(\.receiptHash) == [sandbox.hash])
        }
    }

    @Test("renewal info: newer replaces older, never the reverse", arguments: LedgerBackend.available)
    func renewalInfo(backend: LedgerBackend) async throws {
        @Sendable func info(_ updated: Int64, _ status: String) -> LedgerRenewalInfo {
            LedgerRenewalInfo(
                environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifier: "1000",
                productIdentifier: "com.example.monthly", updatedMilliseconds: updated,
                json: Array(#"{"auto_renew_status":"\#(status)","original_transaction_id":"1000"}"#.utf8))
        }
        try await backend.withLedger { ledger in
            let query = LedgerQuery(
                environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"])
            #expect(try await ledger.renewalInfo(matching: query).isEmpty)
            try await ledger.apply(LedgerUpdate(source: .notification, renewalInfo: [info(2_000, "1")]))
            try await ledger.apply(LedgerUpdate(source: .notification, renewalInfo: [info(1_000, "0")]))
            #expect(try await ledger.renewalInfo(matching: query) == [info(2_000, "1")])
            try await ledger.apply(LedgerUpdate(source: .notification, renewalInfo: [info(3_000, "0")]))
            #expect(try await ledger.renewalInfo(matching: query) == [info(3_000, "0")])

            // The one-statement snapshot reads exactly what the two separate reads do.
            let entry = Self.entry(
                ServiceTestPKI.receipt(purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("1001", original: "1000", day: 31),
                ]), tag: "snapshot")
            try await ledger.record(entry)
            let snapshot = try await ledger.snapshot(matching: query)
            #expect(snapshot.transactions == (try await ledger.transactions(matching: query)))
            #expect(snapshot.transactions.count == 2)
            #expect(snapshot.renewalInfo == [info(3_000, "0")])
        }
    }

    @Test("which receipts are recorded, among more hashes than one statement takes", arguments: LedgerBackend.available)
    func recordedReceiptsAmongHashes(backend: LedgerBackend) async throws {
        let entries = (0..<5).map { index in
            Self.entry(
                ServiceTestPKI.receipt(purchases: [ServiceTestPKI.purchase("\(7_000 + index)", original: "\(7_000 + index)", day: 1)]),
                tag: "among \(index)")
        }
        try await backend.withLedger { ledger in
            for entry in entries.prefix(3) { try await ledger.record(entry) }
            #expect(try await ledger.recordedReceipts(among: []) == [])
            // 450 unknown hashes around the five (three recorded), repeated ones included: three statements' worth.
            var hashes = (0..<450).map { String(format: "%064x", $0) }
            hashes.insert(entries[0].hash, at: 0)
            hashes.insert(entries[1].hash, at: 220)
            hashes.append(contentsOf: entries.map(\.hash) + [entries[2].hash])
            let recorded = try await ledger.recordedReceipts(among: hashes)
            #expect(recorded == Set(entries.prefix(3).map(\.hash)))
            // The protocol's default, over receipt(hash:), agrees.
            #expect(try await ForwardingLedger(ledger).recordedReceipts(among: hashes) == recorded)
        }
    }

    @Test("an app's original transaction ids, page by page, ascending, each once; another app's and environment's apart", arguments: LedgerBackend.available)
    func originalTransactionIdentifiersPageByPage(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            // Two purchases of one original transaction, five customers, one of another app, one in the sandbox.
            for index in 0..<5 {
                let original = "\(8_000 + index)"
                let purchases = [ServiceTestPKI.purchase(original, original: original, day: 1)]
                    + (index == 2 ? [ServiceTestPKI.purchase("9002", original: original, day: 2)] : [])
                try await ledger.record(Self.entry(ServiceTestPKI.receipt(purchases: purchases), tag: "walk \(index)"))
            }
            try await ledger.record(
                Self.entry(
                    ServiceTestPKI.receipt(bundle: "com.example.other", purchases: [ServiceTestPKI.purchase("8100", original: "8100", day: 1)]),
                    tag: "walk other"))
            try await ledger.record(
                Self.entry(
                    ServiceTestPKI.receipt(purchases: [ServiceTestPKI.purchase("8200", original: "8200", day: 1)]), tag: "walk sandbox",
                    environment: .sandbox))
            var walked: [String] = []
            var after: String?
            while true {
                let page = try await ledger.originalTransactionIdentifiers(
                    environment: .production, bundleIdentifier: "com.example.app", after: after, limit: 2)
                #expect(page.count <= 2)
                guard let last = page.last else { break }
                walked += page
                after = last
            }
            #expect(walked == ["8000", "8001", "8002", "8003", "8004"])
            #expect(
                try await ledger.originalTransactionIdentifiers(
                    environment: .sandbox, bundleIdentifier: "com.example.app", after: nil, limit: 10) == ["8200"])
            #expect(
                try await ledger.originalTransactionIdentifiers(
                    environment: .production, bundleIdentifier: "com.example.app", after: "8004", limit: 10) == [])
        }
    }

    @Test("U+0000 in a string to be stored is refused before any write, alike on every backend", arguments: LedgerBackend.available)
    func nulIsRefusedBeforeAnyWrite(backend: LedgerBackend) async throws {
        let clean = Self.entry(ServiceTestPKI.receipt(), tag: "clean")
        let receipts = [
            Self.entry(ServiceTestPKI.receipt(bundle: "com.example.app\u{0}"), tag: "bundle"),
            Self.entry(ServiceTestPKI.receipt(purchases: [ServiceTestPKI.purchase("1000", original: "1000", product: "com.example\u{0}", day: 1)]), tag: "product"),
        ]
        let renewal = LedgerRenewalInfo(
            environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifier: "1000",
            productIdentifier: "com.example.monthly\u{0}", updatedMilliseconds: 1, json: Array("{}".utf8))
        let notification = LedgerNotification(
            notificationUUID: "6a7b0000-0000-4000-8000-000000000000", environment: .production,
            bundleIdentifier: "com.example.app", notificationType: "DID_RENEW", subtype: "\u{0}", signedMilliseconds: 1,
            receivedMilliseconds: 2, payloadJSON: Array("{}".utf8), transaction: clean.transactions.first, renewalInfo: nil)
        try await backend.withLedger { ledger in
            for entry in receipts {
                let error = await #expect(throws: LedgerError.self) { try await ledger.record(entry) }
                #expect(error?.code == .stringContainsNUL)
                #expect(error?.isRetryable == false)
                let stored = try await ledger.receipt(hash: entry.hash)
                #expect(stored == nil)
            }
            await #expect(throws: LedgerError(.stringContainsNUL, "")) { try await ledger.apply(LedgerUpdate(source: .notification, renewalInfo: [renewal]))
            }
            await #expect(throws: LedgerError(.stringContainsNUL, "")) { try await ledger.recordNotification(notification) }
            let query = LedgerQuery(environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"])
            #expect(try await ledger.snapshot(matching: query) == LedgerSnapshot(transactions: [], renewalInfo: []))
            // The refused notification's UUID was not taken: the same notification without U+0000 is new.
            var fixed = notification
            fixed.subtype = nil
            #expect(try await ledger.recordNotification(fixed))
        }
    }

    @Test("database locations parse, and bad ones are refused with a code")
    func locations() throws {
        #expect(try LedgerLocation("sqlite:./x.sqlite") == .sqlite(path: "./x.sqlite"))
        #expect(try LedgerLocation("sqlite:///var/x.sqlite") == .sqlite(path: "/var/x.sqlite"))
        #expect(try LedgerLocation("sqlite::memory:") == .sqlite(path: nil))
        #expect(try LedgerLocation("postgres://u:secret@db:5433/rk").description == "postgres://u@db:5433/rk")
        for bad in ["", "sqlite:", "mysql://x", "postgres://db/rk", "postgres://u@db:99999/rk", "postgres://u@db/rk?sslmode=maybe"] {
            do {
                _ = try LedgerLocation(bad)
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.code == .invalidLocation, "\(bad)")
            }
        }
    }
}
