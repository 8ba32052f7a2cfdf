import Foundation
import ReceiptKit
import ReceiptLedger
import LedgerTestSupport
import Testing

/// The notification backfill's place in the ledger, on every backend: its cursor per app and environment, the newest
/// notification held, and (PostgreSQL, shared by instances) the lease that lets one instance at a time run an app.
@Suite("Ledger notification backfill")
struct LedgerBackfillTests {
    static func notification(_ uuid: String, bundle: String, environment: AppStoreEnvironment = .production, signed: Int64) -> LedgerNotification {
        LedgerNotification(
            notificationUUID: uuid, environment: environment, bundleIdentifier: bundle, notificationType: "TEST",
            subtype: nil, signedMilliseconds: signed, receivedMilliseconds: signed + 1, payloadJSON: Array("{}".utf8),
            transaction: nil, renewalInfo: nil)
    }

    @Test("the cursor moves forward only, per app and environment; the newest notification is the app's own", arguments: LedgerBackend.available)
    func cursorAndNewest(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            #expect(try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: "com.example.a") == LedgerBackfillState())
            try await ledger.recordNotification(Self.notification("n1", bundle: "com.example.a", signed: 5_000))
            try await ledger.recordNotification(Self.notification("n2", bundle: "com.example.a", signed: 7_000))
            try await ledger.recordNotification(Self.notification("n3", bundle: "com.example.a", environment: .sandbox, signed: 9_000))
            try await ledger.recordNotification(Self.notification("n4", bundle: "com.example.b", signed: 8_000))
            #expect(
                try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: "com.example.a")
                    == LedgerBackfillState(newestNotificationMilliseconds: 7_000))

            try await ledger.recordNotificationBackfill(
                environment: .production, bundleIdentifier: "com.example.a", coveredUntilMilliseconds: 100_000, atMilliseconds: 100_010)
            // A window ending earlier (run by hand from a date) leaves the cursor where it is, and is counted.
            try await ledger.recordNotificationBackfill(
                environment: .production, bundleIdentifier: "com.example.a", coveredUntilMilliseconds: 50_000, atMilliseconds: 100_020)
            #expect(
                try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: "com.example.a")
                    == LedgerBackfillState(coveredUntilMilliseconds: 100_000, windows: 2, newestNotificationMilliseconds: 7_000))
            try await ledger.recordNotificationBackfill(
                environment: .production, bundleIdentifier: "com.example.a", coveredUntilMilliseconds: 160_000, atMilliseconds: 160_010)
            #expect(
                try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: "com.example.a")
                    == LedgerBackfillState(coveredUntilMilliseconds: 160_000, windows: 3, newestNotificationMilliseconds: 7_000))
            // The other environment and the other app have cursors of their own.
            #expect(
                try await ledger.notificationBackfillState(environment: .sandbox, bundleIdentifier: "com.example.a")
                    == LedgerBackfillState(newestNotificationMilliseconds: 9_000))
            #expect(
                try await ledger.notificationBackfillState(environment: .production, bundleIdentifier: "com.example.b")
                    == LedgerBackfillState(newestNotificationMilliseconds: 8_000))
        }
    }

    static func lease(_ holder: String, at: Int64, bundle: String = "com.example.a") -> LedgerBackfillLease {
        LedgerBackfillLease(
            environment: .production, bundleIdentifier: bundle, holder: holder, atMilliseconds: at, leaseMilliseconds: 1_000)
    }

    @Test("one instance at a time holds an app's backfill on PostgreSQL: renewed by its holder, taken over once it lapses",
          .enabled(if: LedgerBackend.available.contains(.postgres), Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func leaseOnASharedLedger() async throws {
        try await LedgerBackend.postgres.withLedger { ledger in
            #expect(try await ledger.leaseNotificationBackfill(Self.lease("a", at: 10_000)))
            #expect(try await !ledger.leaseNotificationBackfill(Self.lease("b", at: 10_500)), "a's lease is live")
            #expect(try await ledger.leaseNotificationBackfill(Self.lease("b", at: 10_500, bundle: "com.example.b")), "another app")
            #expect(try await ledger.leaseNotificationBackfill(Self.lease("a", at: 10_900)), "renewed by its holder, to 11,900")
            #expect(try await !ledger.leaseNotificationBackfill(Self.lease("b", at: 11_500)), "still a's after the renewal")
            #expect(try await ledger.leaseNotificationBackfill(Self.lease("b", at: 11_900)), "lapsed: b takes it over")
            // a, ending what it no longer holds, leaves b's lease alone.
            try await ledger.endNotificationBackfill(Self.lease("a", at: 12_000))
            #expect(try await !ledger.leaseNotificationBackfill(Self.lease("a", at: 12_100)))
            try await ledger.endNotificationBackfill(Self.lease("b", at: 12_200))
            #expect(try await ledger.leaseNotificationBackfill(Self.lease("a", at: 12_300)), "ended: free again")
            // The customers' refresh claims of the same app are another scope.
            let claim = LedgerAPIClaim(
                environment: .production, bundleIdentifier: "com.example.a", originalTransactionIdentifier: "1000",
                holder: "b", atMilliseconds: 12_300, leaseMilliseconds: 1_000)
            #expect(try await ledger.claimAPIRefresh(claim) == .granted)
        }
    }

    @Test("a ledger one process owns grants the lease to whoever asks", arguments: [LedgerBackend.sqliteMemory, .sqliteFile])
    func leaseInOneProcess(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let first = try await ledger.leaseNotificationBackfill(Self.lease("a", at: 10_000))
            let second = try await ledger.leaseNotificationBackfill(Self.lease("b", at: 10_000))
            #expect(first && second)
        }
    }
}
