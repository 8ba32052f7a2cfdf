import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// A customer as the ledger tells it (``Ledger/customer(environment:bundleIdentifier:transactionIdentifier:)``): the
/// original transactions one receipt holds, found by any of their transaction ids or original ids, with the JWS of
/// every transaction and signed renewal information — on every backend.
@Suite("Ledger customers")
struct LedgerCustomerTests {
    typealias S = LedgerSourcesTests
    typealias V = LedgerSignedValuesTests

    static func customer(_ ledger: any Ledger, _ id: String, environment: AppStoreEnvironment = .production) async throws
        -> LedgerCustomer?
    {
        try await ledger.customer(environment: environment, bundleIdentifier: "com.example.app", transactionIdentifier: id)
    }

    @Test("one receipt's original transactions are one customer; a newer receipt moves an original transaction to its own; signed-only is alone",
          arguments: LedgerBackend.available)
    func customersFromReceipts(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let first = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 10, purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("1001", original: "1000", day: 2),
                    ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.lifetime", day: 3, subscription: false),
                ]), tag: "first")
            let other = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 10, purchases: [ServiceTestPKI.purchase("3000", original: "3000", day: 1)]),
                tag: "other")
            try await ledger.record(first)
            try await ledger.record(other)
            // A transaction learnt from signed data only, of an original transaction no receipt carried.
            var loner = S.signed("4000", signed: 5_000)
            loner.originalTransactionIdentifier = "4000"
            loner.signedJWS = V.jws("loner")
            loner.receiptHash = LedgerTransaction.signedDataHash(of: V.jws("loner"))
            var renewal = S.renewal(5_000)
            renewal.signedJWS = V.jws("renewal")
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [loner], renewalInfo: [renewal]))

            // Any transaction id or original id of the customer.
            for id in ["1000", "1001", "2000"] {
                let customer = try #require(try await Self.customer(ledger, id), "\(id)")
                #expect(customer.originalTransactionIdentifiers == ["1000", "2000"], "\(id)")
                #expect(Set(customer.transactions.map(\.transactionIdentifier)) == ["1000", "1001", "2000"])
                #expect(customer.transactions.allSatisfy { $0.signed.source == .receipt && $0.signed.currentJWS == nil })
                #expect(customer.signedRenewalInfo == ["1000": V.jws("renewal")], "signed renewal info only")
                #expect(customer.environment == .production && customer.bundleIdentifier == "com.example.app")
            }
            #expect(try await Self.customer(ledger, "3000")?.originalTransactionIdentifiers == ["3000"])
            let alone = try #require(try await Self.customer(ledger, "4000"))
            #expect(alone.originalTransactionIdentifiers == ["4000"])
            #expect(alone.transactions.map(\.signed.currentJWS) == [V.jws("loner")])
            #expect(alone.transactions.map(\.versionMilliseconds) == [5_000])
            #expect(try await Self.customer(ledger, "9999") == nil)
            #expect(try await Self.customer(ledger, "1000", environment: .sandbox) == nil)
            #expect(try await ledger.customer(environment: .production, bundleIdentifier: "com.example.other", transactionIdentifier: "1000") == nil)

            // The customer's newer receipt also carries a purchase the first one did not: all three are one customer.
            let newer = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 20, purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.lifetime", day: 3, subscription: false),
                    ServiceTestPKI.purchase("5000", original: "5000", product: "com.example.coins", day: 15, subscription: false),
                ]), tag: "newer")
            try await ledger.record(newer)
            #expect(try await Self.customer(ledger, "5000")?.originalTransactionIdentifiers == ["1000", "2000", "5000"])
            #expect(try await Self.customer(ledger, "1001")?.originalTransactionIdentifiers == ["1000", "2000", "5000"])
        }
    }

    /// A signed transaction of `original` carrying `token` as its `app_account_token`.
    static func tokened(_ id: String, original: String, token: String?, signed: Int64) -> LedgerTransaction {
        var row = S.signed(id, signed: signed)
        row.originalTransactionIdentifier = original
        row.json = Array((token.map { #"{"app_account_token":"\#($0)","transaction_id":"\#(id)"}"# } ?? "{}").utf8)
        return row
    }

    @Test("a customer by app account token: its signed transactions' original ids and their receipt's; any case; kept when a receipt replaces the row",
          arguments: LedgerBackend.available)
    func customerByAppAccountToken(backend: LedgerBackend) async throws {
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        try await backend.withLedger { ledger in
            let receipt = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 10, purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.lifetime", day: 3, subscription: false),
                ]), tag: "tokened")
            try await ledger.record(receipt)
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [
                Self.tokened("1001", original: "1000", token: token.lowercased(), signed: 5_000_000_000_000),
                Self.tokened("3000", original: "3000", token: "another", signed: 5_000_000_000_000),
            ]))
            func customer(_ token: String) async throws -> [String]? {
                try await ledger.customer(environment: .production, bundleIdentifier: "com.example.app", appAccountToken: token)?
                    .originalTransactionIdentifiers
            }
            #expect(try await customer(token) == ["1000", "2000"], "the receipt's other purchase too")
            #expect(try await customer(token.lowercased()) == ["1000", "2000"])
            #expect(try await customer("another") == ["3000"])
            #expect(try await customer("unknown") == nil)
            #expect(try await ledger.customer(environment: .sandbox, bundleIdentifier: "com.example.app", appAccountToken: token) == nil)
            // A newer receipt's version of 1001 (receipts carry no token) leaves the token where it was.
            let newer = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 90_000, purchases: [
                    ServiceTestPKI.purchase("1000", original: "1000", day: 1),
                    ServiceTestPKI.purchase("1001", original: "1000", day: 2),
                    ServiceTestPKI.purchase("2000", original: "2000", product: "com.example.lifetime", day: 3, subscription: false),
                ]), tag: "newer")
            try await ledger.record(newer)
            #expect(try await customer(token) == ["1000", "2000"])
        }
    }

    @Test("migration 8: app account tokens of transactions stored before are found", arguments: LedgerBackend.available)
    func migrationFromVersion7(backend: LedgerBackend) async throws {
        try await backend.withLedger(migrated: false) { ledger in
            let backendLedger = try #require(ledger as? any BackendLedger)
            try await backendLedger.migrate(upTo: 7)
            try await backendLedger.execute([
                """
                INSERT INTO receiptkit_transactions (environment, transaction_id, original_transaction_id, bundle_id,
                    product_id, purchase_ms, expires_ms, cancellation_ms, receipt_hash, receipt_created_ms, purchase_json,
                    source)
                VALUES ('Production', '1001', '1000', 'com.example.app', 'com.example.monthly', 1000, 2000, NULL,
                    'jws:aaaa', 1000, '{"app_account_token":"ABC-1","transaction_id":"1001"}', 'notification'),
                    ('Production', '1002', '1000', 'com.example.app', 'com.example.monthly', 1000, 2000, NULL,
                    'jws:bbbb', 1000, '{"app_account_token":"abc-1","transaction_id":"1002"}', 'notification'),
                    ('Production', '4000', '4000', 'com.example.app', 'com.example.monthly', 1000, 2000, NULL,
                    'jws:cccc', 1000, '{"transaction_id":"4000"}', 'notification')
                """
            ])
            try await ledger.migrate()
            #expect(try await ledger.schemaVersion() == LedgerSchemaVersion.latest)
            #expect(
                try await backendLedger.select(
                    "SELECT environment, bundle_id, app_account_token, original_transaction_id FROM receiptkit_app_account_tokens")
                    == [[.text("Production"), .text("com.example.app"), .text("abc-1"), .text("1000")]])
            let customer = try await ledger.customer(
                environment: .production, bundleIdentifier: "com.example.app", appAccountToken: "ABC-1")
            #expect(customer?.originalTransactionIdentifiers == ["1000"])
            // Rows stored before are numbered by version date, then id; a row written now comes after them.
            let numbered = try #require(customer).transactions.sorted { $0.changeNumber < $1.changeNumber }
            #expect(numbered.map(\.transactionIdentifier) == ["1001", "1002"])
            #expect(numbered.map(\.changeNumber) == [1, 2])
            var next = S.signed("1003", signed: 500)
            next.originalTransactionIdentifier = "1000"
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [next]))
            let third = try await ledger.customer(
                environment: .production, bundleIdentifier: "com.example.app", transactionIdentifier: "1003")
            #expect(third?.transactions.first { $0.transactionIdentifier == "1003" }?.changeNumber == 4,
                    "after the rows stored before (4000 took 3)")
        }
    }

    @Test("change numbers: a row inserted or given new content takes the next, a version that changes nothing keeps its own",
          arguments: LedgerBackend.available)
    func changeNumbers(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            func numbers() async throws -> [String: Int64] {
                let customer = try #require(try await Self.customer(ledger, "1000"))
                return Dictionary(uniqueKeysWithValues: customer.transactions.map { ($0.transactionIdentifier, $0.changeNumber) })
            }
            var first = S.signed("1001", signed: 5_000)
            first.originalTransactionIdentifier = "1000"
            var second = S.signed("1002", signed: 5_000)
            second.originalTransactionIdentifier = "1000"
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [first]))
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [second]))
            let before = try await numbers()
            let one = try #require(before["1001"])
            let two = try #require(before["1002"])
            #expect(two > one, "inserted later, numbered later")
            // 1001 signed again, unchanged; 1002 signed again with a refund.
            var same = first
            same.receiptCreationMilliseconds = 6_000
            same.receiptHash = "jws:1001-6000"
            var refunded = second
            refunded.receiptCreationMilliseconds = 6_000
            refunded.receiptHash = "jws:1002-6000"
            refunded.cancellationDateMilliseconds = 5_500
            refunded.json = Array(#"{"cancellation_date_ms":"5500","transaction_id":"1002"}"#.utf8)
            try await ledger.apply(LedgerUpdate(source: .api, transactions: [same, refunded]))
            let after = try await numbers()
            #expect(after["1001"] == one, "an unchanged version keeps its number")
            #expect((after["1002"] ?? 0) > two, "new content, a new number")
            let versions = try #require(try await Self.customer(ledger, "1000")).transactions
            #expect(versions.first { $0.transactionIdentifier == "1001" }?.versionMilliseconds == 6_000, "the version is still the newer one")
        }
    }

    @Test("SQLite looks a customer up by index: no scan of the app's transactions or original transactions")
    func sqliteCustomerPlan() async throws {
        try await LedgerBackend.sqliteFile.withLedger { ledger in
            let sqlite = try #require(ledger as? SQLiteLedger)
            let statements = LedgerStatements(dialect: .sqlite)
            for statement in [
                statements.selectCustomer(environment: .production, bundleIdentifier: "b", transactionIdentifier: "1"),
                statements.selectCustomer(environment: .production, bundleIdentifier: "b", appAccountToken: "t"),
            ] {
                let plan = try await sqlite.operations.backend.read { session in
                    try await session.run(SQLStatement(sql: "EXPLAIN QUERY PLAN " + statement.sql, binds: statement.binds))
                }
                let details = plan.compactMap { row -> String? in
                    guard case .text(let detail)? = row.last else { return nil }
                    return detail
                }
                #expect(!details.isEmpty)
                for detail in details where detail.hasPrefix("SEARCH") || detail.hasPrefix("SCAN") {
                    // Each search names its key column; none reads the app's rows whole. The one scan reads the
                    // ids the searches found, to make them distinct.
                    #expect(!detail.hasPrefix("SCAN") || detail == "SCAN customer", "\(detail)")
                    #expect(!detail.hasSuffix("(environment=? AND bundle_id=?)"), "\(detail)")
                }
                #expect(details.contains { $0.contains("receiptkit_original_transactions_by_receipt") }, "\(details)")
            }
        }
    }

    @Test("SQLite plans a customer lookup once per connection: running it for other customers prepares nothing again")
    func sqliteCustomerLookupIsNotPreparedAgain() async throws {
        try await SQLitePreparedConnectionTests.withBackend { backend, path in
            try await backend.transaction(exclusive: true) { session in
                for statement in LedgerMigration.all.flatMap({ $0.statements(.sqlite) }) {
                    _ = try await session.run(SQLStatement(sql: statement, binds: []))
                }
            }
            let connection = try SQLitePreparedConnection(path: path, readOnly: true, maximumStatements: 64)
            defer { connection.close() }
            let statements = LedgerStatements(dialect: .sqlite)
            for index in 0..<20 {
                let id = String(7_000 + index)
                for statement in [
                    statements.selectCustomer(environment: .production, bundleIdentifier: "b", transactionIdentifier: id),
                    statements.selectCustomer(environment: .production, bundleIdentifier: "b", appAccountToken: id),
                ] {
                    #expect(try connection.run(statement) == [])
                }
            }
            for statement in [
                statements.selectCustomer(environment: .production, bundleIdentifier: "b", transactionIdentifier: "1"),
                statements.selectCustomer(environment: .production, bundleIdentifier: "b", appAccountToken: "1"),
            ] {
                #expect(connection.repreparations(of: statement.sql) == 0, "\(statement.sql)")
            }
            // What the statements avoid: the same lookup joined by UNION is prepared again at every new value.
            let union = """
                SELECT original_transaction_id FROM receiptkit_transactions WHERE environment = ?1 AND transaction_id = ?2
                UNION SELECT original_transaction_id FROM receiptkit_transactions WHERE environment = ?1 AND original_transaction_id = ?2
                """
            for index in 0..<5 {
                _ = try connection.run(SQLStatement(sql: union, binds: [.text("Production"), .text(String(index))]))
            }
            #expect(connection.repreparations(of: union) == 4)
        }
    }

    @Test("migration 9: notifications are found by original transaction from then on; those recorded before are not",
          arguments: LedgerBackend.available)
    func migrationFromVersion8(backend: LedgerBackend) async throws {
        try await backend.withLedger(migrated: false) { ledger in
            let backendLedger = try #require(ledger as? any BackendLedger)
            try await backendLedger.migrate(upTo: 8)
            try await backendLedger.execute([
                """
                INSERT INTO receiptkit_notifications (notification_uuid, environment, bundle_id, notification_type, subtype,
                    signed_ms, received_ms, payload_json)
                VALUES ('old-uuid', 'Production', 'com.example.app', 'DID_RENEW', NULL, 1000, 1001, '{}')
                """
            ])
            try await ledger.migrate()
            #expect(try await ledger.schemaVersion() == LedgerSchemaVersion.latest)
            func found() async throws -> [String] {
                try await ledger.notifications(
                    environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000"],
                    limit: 10
                ).map(\.notificationUUID)
            }
            #expect(try await found() == [], "the ledger did not note whose it was")
            var transaction = S.signed("1001", signed: 2_000)
            transaction.originalTransactionIdentifier = "1000"
            for (uuid, signed) in [("b-uuid", Int64(3_000)), ("a-uuid", 3_000), ("c-uuid", 2_500)] {
                try await ledger.recordNotification(
                    LedgerNotification(
                        notificationUUID: uuid, environment: .production, bundleIdentifier: "com.example.app",
                        notificationType: "DID_RENEW", subtype: "x", signedMilliseconds: signed, receivedMilliseconds: 4_000,
                        payloadJSON: Array("{}".utf8), transaction: transaction, renewalInfo: nil))
            }
            // Newest signed first, then by UUID; the limit keeps the newest.
            #expect(try await found() == ["a-uuid", "b-uuid", "c-uuid"])
            let first = try #require(
                try await ledger.notifications(
                    environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["1000", "9"],
                    limit: 1
                ).first)
            #expect(first == LedgerNotificationEntry(
                notificationUUID: "a-uuid", originalTransactionIdentifier: "1000", notificationType: "DID_RENEW", subtype: "x",
                signedMilliseconds: 3_000, receivedMilliseconds: 4_000))
        }
    }

    @Test("SQLite reads a customer's notifications by their index, not by walking the app's")
    func sqliteNotificationPlan() async throws {
        try await LedgerBackend.sqliteFile.withLedger { ledger in
            let sqlite = try #require(ledger as? SQLiteLedger)
            let statement = LedgerStatements(dialect: .sqlite).selectNotifications(
                environment: .production, bundleIdentifier: "b", ids: ["1", "2"], limit: 200)
            let plan = try await sqlite.operations.backend.read { session in
                try await session.run(SQLStatement(sql: "EXPLAIN QUERY PLAN " + statement.sql, binds: statement.binds))
            }
            let details = plan.compactMap { row -> String? in
                guard case .text(let detail)? = row.last else { return nil }
                return detail
            }
            #expect(details.contains { $0.hasPrefix("SEARCH") && $0.contains("receiptkit_notifications_by_original") }, "\(details)")
            #expect(!details.contains { $0.hasPrefix("SCAN") }, "\(details)")
        }
    }
}
