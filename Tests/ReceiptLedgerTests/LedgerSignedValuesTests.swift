import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// Signed values kept as Apple signed them (schema version 7): each transaction and renewal-information row learnt
/// from signed data holds its compact JWS, a notification its `signedPayload`; the JWS goes and comes with its row's
/// version; ledgers from before keep working — on every backend.
@Suite("Ledger signed values")
struct LedgerSignedValuesTests {
    typealias S = LedgerSourcesTests

    /// Transaction 1000 as ``Ledger/signedTransaction(environment:bundleIdentifier:transactionIdentifier:)`` reads it.
    static func stored(_ ledger: any Ledger) async throws -> LedgerSignedTransaction? {
        try await ledger.signedTransaction(environment: .production, bundleIdentifier: "com.example.app", transactionIdentifier: "1000")
    }

    /// A stand-in for a compact JWS: the ledger keeps the text it is given, byte for byte.
    static func jws(_ tag: String) -> String { "eyJhbGciOiJFUzI1NiJ9.\(tag).c2lnbmF0dXJl" }

    @Test("a row's JWS is its version's: an older signed version leaves it, a newer replaces it, a receipt's clears it",
          arguments: LedgerBackend.available)
    func jwsFollowsItsVersion(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            var first = S.signed("1000", signed: 2_000)
            first.signedJWS = Self.jws("second")
            var older = S.signed("1000", signed: 1_000)
            older.signedJWS = Self.jws("first")
            var renewal = S.renewal(2_000)
            renewal.signedJWS = Self.jws("renewal")
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [first], renewalInfo: [renewal]))
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [older], renewalInfo: [S.renewal(1_000)]))
            #expect(try await Self.stored(ledger)?.signedJWS == Self.jws("second"))
            #expect(try await ledger.snapshot(matching: S.query).renewalInfo.map(\.signedJWS) == [Self.jws("renewal")])

            // A receipt created later carries the transaction: its version has no JWS.
            let receipt = LedgerContractTests.entry(
                ServiceTestPKI.receipt(createdDay: 30, purchases: [ServiceTestPKI.purchase("1000", original: "1000", day: 1)]),
                tag: "later")
            #expect(receipt.creationMilliseconds > 2_000)
            try await ledger.record(receipt)
            let stored = try #require(try await Self.stored(ledger))
            #expect(stored.source == .receipt)
            #expect(stored.signedJWS == nil)
            #expect(stored.currentJWS == nil)
            #expect(try await ledger.signedTransaction(
                environment: .sandbox, bundleIdentifier: "com.example.app", transactionIdentifier: "1000") == nil)
        }
    }

    @Test("the current JWS is the one the row's key names, from signed data only")
    func currentJWS() {
        let jws = Self.jws("x")
        let hash = LedgerTransaction.signedDataHash(of: jws)
        #expect(LedgerSignedTransaction(originalTransactionIdentifier: "1", source: .api, receiptHash: hash, signedJWS: jws).currentJWS == jws)
        #expect(LedgerSignedTransaction(originalTransactionIdentifier: "1", source: .notification, receiptHash: hash, signedJWS: jws).currentJWS == jws)
        // A JWS an older writer left on a row it replaced with another version: not the row's.
        #expect(LedgerSignedTransaction(originalTransactionIdentifier: "1", source: .api, receiptHash: "jws:other", signedJWS: jws).currentJWS == nil)
        #expect(LedgerSignedTransaction(originalTransactionIdentifier: "1", source: .receipt, receiptHash: hash, signedJWS: jws).currentJWS == nil)
        #expect(LedgerSignedTransaction(originalTransactionIdentifier: "1", source: .api, receiptHash: hash, signedJWS: nil).currentJWS == nil)
    }

    @Test("a notification keeps its signedPayload", arguments: LedgerBackend.available)
    func notificationKeepsSignedPayload(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            var transaction = S.signed("1000", signed: 2_000)
            transaction.signedJWS = Self.jws("transaction")
            let notification = LedgerNotification(
                notificationUUID: "7e3fb20b-4cdb-47cc-936d-99d65f608138", environment: .production,
                bundleIdentifier: "com.example.app", notificationType: "DID_RENEW", subtype: nil,
                signedMilliseconds: 2_000, receivedMilliseconds: 2_500, payloadJSON: Array("{}".utf8),
                transaction: transaction, renewalInfo: nil, signedPayload: Self.jws("notification"))
            #expect(try await ledger.recordNotification(notification))
            let backendLedger = try #require(ledger as? any BackendLedger)
            let stored = try await backendLedger.select(
                "SELECT signed_payload FROM receiptkit_notifications WHERE notification_uuid = '\(notification.notificationUUID)'")
            #expect(stored == [[.text(Self.jws("notification"))]])
            #expect(try await Self.stored(ledger)?.signedJWS == Self.jws("transaction"))
        }
    }

    @Test("migration 7: rows and notifications learnt before keep working, with no JWS", arguments: LedgerBackend.available)
    func migrationFromVersion6(backend: LedgerBackend) async throws {
        try await backend.withLedger(migrated: false) { ledger in
            let backendLedger = try #require(ledger as? any BackendLedger)
            try await backendLedger.migrate(upTo: 6)
            try await backendLedger.execute([
                """
                INSERT INTO receiptkit_transactions (environment, transaction_id, original_transaction_id, bundle_id,
                    product_id, purchase_ms, expires_ms, cancellation_ms, receipt_hash, receipt_created_ms, purchase_json,
                    source)
                VALUES ('Production', '1000', '1000', 'com.example.app', 'com.example.monthly', 1000, 2000, NULL,
                    'jws:aaaa', 1000, '{}', 'notification')
                """,
                """
                INSERT INTO receiptkit_renewal_info (environment, bundle_id, original_transaction_id, product_id, updated_ms,
                    renewal_json, source)
                VALUES ('Production', 'com.example.app', '1000', 'com.example.monthly', 1000, '{}', 'notification')
                """,
                """
                INSERT INTO receiptkit_notifications (notification_uuid, environment, bundle_id, notification_type,
                    subtype, signed_ms, received_ms, payload_json)
                VALUES ('before', 'Production', 'com.example.app', 'DID_RENEW', NULL, 1000, 1000, '{}')
                """,
            ])
            try await ledger.migrate()
            #expect(try await ledger.schemaVersion() == LedgerSchemaVersion.latest)
            let snapshot = try await ledger.snapshot(matching: S.query)
            #expect(snapshot.transactions.map(\.transactionIdentifier) == ["1000"])
            #expect(try await Self.stored(ledger)?.signedJWS == nil)
            #expect(snapshot.renewalInfo.map(\.signedJWS) == [nil])
            #expect(try await backendLedger.select("SELECT signed_payload FROM receiptkit_notifications") == [[.null]])

            // A newer signed version replaces the old row and brings its JWS.
            var newer = S.signed("1000", signed: 3_000)
            newer.signedJWS = Self.jws("newer")
            try await ledger.apply(LedgerUpdate(source: .api, transactions: [newer]))
            #expect(try await Self.stored(ledger)?.signedJWS == Self.jws("newer"))
        }
    }
}

extension BackendLedger {
    /// The rows `sql` selects.
    func select(_ sql: String) async throws -> [[SQLValue]] {
        try await self.operations.backend.read { session in
            try await session.run(SQLStatement(sql: sql, binds: []))
        }
    }
}
