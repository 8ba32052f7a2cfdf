import Foundation
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptLedger
import LedgerTestSupport
import Testing

/// The notification outbox on every backend: entries written with their notification (and only for a new one),
/// claimed first-in-order per original transaction and target, leased so that no entry is claimed twice at once,
/// settled, listed, retried and dropped; on PostgreSQL, two instances claiming at once never share an entry.
@Suite("Ledger notification outbox")
struct LedgerOutboxTests {
    static func notification(
        _ uuid: String, original: String?, signed: Int64, targets: [String] = ["a", "b"], deadline: Int64 = 1_000_000,
        bundle: String = "com.example.app", body: String? = nil
    ) -> LedgerNotification {
        let transaction = original.map { original in
            LedgerTransaction(
                environment: .production, bundleIdentifier: bundle, transactionIdentifier: "t-" + uuid,
                originalTransactionIdentifier: original, productIdentifier: "p", purchaseDateMilliseconds: signed,
                expiresDateMilliseconds: nil, cancellationDateMilliseconds: nil, receiptHash: "h-" + uuid,
                receiptCreationMilliseconds: signed, json: Array("{}".utf8), source: .notification)
        }
        return LedgerNotification(
            notificationUUID: uuid, environment: .production, bundleIdentifier: bundle, notificationType: "DID_RENEW",
            subtype: original == nil ? nil : "BILLING_RECOVERY", signedMilliseconds: signed, receivedMilliseconds: signed + 5,
            payloadJSON: Array("{}".utf8), transaction: transaction, renewalInfo: nil,
            forwarding: LedgerForwarding(
                targets: targets, body: Array((body ?? #"{"signedPayload":"\#(uuid)"}"#).utf8), deadlineMilliseconds: deadline))
    }

    static func claim(_ holder: String, at: Int64, targets: [String] = ["a"], limit: Int = 10, lease: Int64 = 1_000) -> LedgerOutboxClaim {
        LedgerOutboxClaim(targets: targets, holder: holder, atMilliseconds: at, leaseMilliseconds: lease, limit: limit)
    }

    static func settle(_ entry: LedgerOutboxEntry, _ holder: String, _ outcome: LedgerOutboxSettlement.Outcome) -> LedgerOutboxSettlement {
        LedgerOutboxSettlement(target: entry.target, notificationUUID: entry.notificationUUID, holder: holder, outcome: outcome)
    }

    @Test("entries are written with a new notification, one per target, the body byte for byte; a duplicate adds none", arguments: LedgerBackend.available)
    func writtenWithTheNotification(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let body = "{ \"signedPayload\" : \"x.y.z\" }\n"
            #expect(try await ledger.recordNotification(Self.notification("n1", original: "1000", signed: 10, body: body)))
            #expect(try await !ledger.recordNotification(Self.notification("n1", original: "1000", signed: 10, targets: ["a", "b", "c"])))
            // A notification without forwarding adds nothing.
            var plain = Self.notification("n2", original: "1000", signed: 20)
            plain.forwarding = nil
            try await ledger.recordNotification(plain)
            let entries = try await ledger.outboxEntries(LedgerOutboxFilter())
            #expect(entries.map(\.target) == ["a", "b"])
            let first = try #require(entries.first)
            #expect(first.body == Array(body.utf8))
            #expect(first.notificationUUID == "n1" && first.state == .pending && first.attempts == 0)
            #expect(first.originalTransactionIdentifier == "1000" && first.subtype == "BILLING_RECOVERY")
            #expect(first.signedMilliseconds == 10 && first.createdMilliseconds == 15)
            #expect(first.nextAttemptMilliseconds == 15 && first.deadlineMilliseconds == 1_000_000)
            #expect(first.environment == .production && first.bundleIdentifier == "com.example.app")
            #expect(try await ledger.outboxTotals() == [
                LedgerOutboxTotals(target: "a", pending: 1, parked: 0, oldestPendingMilliseconds: 15),
                LedgerOutboxTotals(target: "b", pending: 1, parked: 0, oldestPendingMilliseconds: 15),
            ])
        }
    }

    @Test("per original transaction and target, only the first pending entry by signedDate is claimed; others go at once", arguments: LedgerBackend.available)
    func orderPerOriginalTransaction(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            // Recorded out of order: n3 (signed 30) before n1 (10) and n2 (20), all of original 1000.
            for (uuid, signed) in [("n3", 30), ("n1", 10), ("n2", 20)] {
                try await ledger.recordNotification(Self.notification(uuid, original: "1000", signed: Int64(signed), targets: ["a"]))
            }
            try await ledger.recordNotification(Self.notification("m1", original: "2000", signed: 25, targets: ["a"]))
            try await ledger.recordNotification(Self.notification("t1", original: nil, signed: 5, targets: ["a"]))
            try await ledger.recordNotification(Self.notification("t2", original: nil, signed: 6, targets: ["a"]))

            let first = try await ledger.claimOutbox(Self.claim("h", at: 100))
            // Notifications about no original transaction are each their own order.
            #expect(first.map(\.notificationUUID) == ["t1", "t2", "n1", "m1"])
            #expect(first.allSatisfy { $0.attempts == 1 })
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 100)).isEmpty, "leased, and n2 waits for n1")

            let n1 = try #require(first.first { $0.notificationUUID == "n1" })
            #expect(try await ledger.settleOutbox([Self.settle(n1, "h", .delivered)]) == 1)
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 100)).map(\.notificationUUID) == ["n2"])
            // A failed head holds its order back until it is due again, and then goes first.
            let m1 = try #require(first.first { $0.notificationUUID == "m1" })
            #expect(try await ledger.settleOutbox([Self.settle(m1, "h", .retry(atMilliseconds: 500, error: "HTTP 503"))]) == 1)
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 499)).isEmpty)
            let again = try await ledger.claimOutbox(Self.claim("h", at: 500))
            #expect(again.map(\.notificationUUID) == ["m1"])
            #expect(again.first?.attempts == 2 && again.first?.lastError == "HTTP 503")
        }
    }

    @Test("a lapsed lease is claimed again; the old holder's failure no longer applies, its delivery still does", arguments: LedgerBackend.available)
    func leases(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            try await ledger.recordNotification(Self.notification("n1", original: "1000", signed: 10, targets: ["a"]))
            let taken = try #require(try await ledger.claimOutbox(Self.claim("old", at: 100)).first)
            #expect(try await ledger.claimOutbox(Self.claim("new", at: 1_099)).isEmpty, "leased until 1,100")
            let retaken = try #require(try await ledger.claimOutbox(Self.claim("new", at: 1_100)).first)
            #expect(retaken.attempts == 2)
            #expect(try await ledger.settleOutbox([Self.settle(taken, "old", .retry(atMilliseconds: 5_000, error: "late"))]) == 0)
            #expect(try await ledger.settleOutbox([Self.settle(taken, "old", .parked(error: "late"))]) == 0)
            #expect(try await ledger.outboxEntries(LedgerOutboxFilter()).first?.lastError == nil)
            // Delivered is delivered, whoever holds it.
            #expect(try await ledger.settleOutbox([Self.settle(taken, "old", .delivered)]) == 1)
            #expect(try await ledger.outboxEntries(LedgerOutboxFilter()).isEmpty)
            #expect(try await ledger.settleOutbox([Self.settle(retaken, "new", .delivered)]) == 0, "gone already")
        }
    }

    @Test("a round's settlements in one call: deliveries deleted together, a retry and a stale holder's failure each as alone", arguments: LedgerBackend.available)
    func settledTogether(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            for index in 0..<250 {
                try await ledger.recordNotification(Self.notification("n\(index)", original: "o\(index)", signed: Int64(index), targets: ["a"]))
            }
            let claimed = try await ledger.claimOutbox(Self.claim("h", at: 10_000, limit: 300))
            #expect(claimed.count == 250)
            // 248 delivered (more than one statement's worth of ids), one failed, one settled by a holder it is not.
            var settlements = claimed.prefix(248).map { Self.settle($0, "h", .delivered) }
            settlements.append(Self.settle(claimed[248], "h", .retry(atMilliseconds: 20_000, error: "HTTP 502")))
            settlements.append(Self.settle(claimed[249], "other", .parked(error: "late")))
            #expect(try await ledger.settleOutbox(settlements) == 249)
            let left = try await ledger.outboxEntries(LedgerOutboxFilter())
            #expect(Set(left.map(\.notificationUUID)) == [claimed[248].notificationUUID, claimed[249].notificationUUID])
            #expect(left.first { $0.notificationUUID == claimed[248].notificationUUID }?.lastError == "HTTP 502")
            #expect(left.first { $0.notificationUUID == claimed[249].notificationUUID }?.state == .pending)
            #expect(try await ledger.settleOutbox([]) == 0)
        }
    }

    @Test("parked entries wait for an operator and hold nothing back; retry, list and drop take filters", arguments: LedgerBackend.available)
    func parkRetryDrop(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            try await ledger.recordNotification(Self.notification("n1", original: "1000", signed: 10))
            try await ledger.recordNotification(Self.notification("n2", original: "1000", signed: 20))
            let head = try #require(try await ledger.claimOutbox(Self.claim("h", at: 100)).first)
            #expect(head.notificationUUID == "n1")
            #expect(try await ledger.settleOutbox([Self.settle(head, "h", .parked(error: "HTTP 500"))]) == 1)
            // n2 goes although n1 did not: a parked entry no longer holds its order.
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 100)).map(\.notificationUUID) == ["n2"])
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 5_000)).map(\.notificationUUID) == ["n2"], "lapsed: n2 again")

            let parked = try await ledger.outboxEntries(LedgerOutboxFilter(state: .parked))
            #expect(parked.map { "\($0.target) \($0.notificationUUID) \($0.lastError ?? "")" } == ["a n1 HTTP 500"])
            #expect(try await ledger.outboxEntries(LedgerOutboxFilter(target: "b")).map(\.notificationUUID) == ["n1", "n2"])
            #expect(try await ledger.outboxEntries(LedgerOutboxFilter(limit: 1)).count == 1)
            #expect(try await ledger.outboxTotals().first { $0.target == "a" } == LedgerOutboxTotals(target: "a", pending: 1, parked: 1, oldestPendingMilliseconds: 25))

            #expect(try await ledger.retryOutbox(LedgerOutboxFilter(target: "a", state: .parked), atMilliseconds: 6_000, deadlineMilliseconds: 9_000) == 1)
            let revived = try #require(try await ledger.outboxEntries(LedgerOutboxFilter(target: "a", notificationUUID: "n1")).first)
            #expect(revived.state == .pending && revived.nextAttemptMilliseconds == 6_000 && revived.deadlineMilliseconds == 9_000)
            #expect(try await ledger.retryOutbox(LedgerOutboxFilter(target: "a", state: .parked), atMilliseconds: 6_000, deadlineMilliseconds: 9_000) == 0)

            #expect(try await ledger.dropOutbox(LedgerOutboxFilter(notificationUUID: "n2")) == 2)
            #expect(try await ledger.dropOutbox(LedgerOutboxFilter(target: "b")) == 1)
            #expect(try await ledger.outboxEntries(LedgerOutboxFilter()).map { "\($0.target) \($0.notificationUUID)" } == ["a n1"])
            #expect(try await ledger.dropOutbox(LedgerOutboxFilter(target: "nobody")) == 0)
        }
    }

    @Test("a target this claim does not name is never claimed")
    func otherTargets() async throws {
        try await LedgerBackend.sqliteMemory.withLedger { ledger in
            try await ledger.recordNotification(Self.notification("n1", original: "1000", signed: 10, targets: ["a", "b"]))
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 100, targets: ["c"])).isEmpty)
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 100, targets: [])).isEmpty)
            #expect(try await ledger.claimOutbox(Self.claim("h", at: 100, targets: ["b", "a"])).map(\.target) == ["a", "b"])
        }
    }

    @Test("two PostgreSQL instances claiming at once never share an entry, and every entry is claimed once",
          .enabled(if: LedgerBackend.available.contains(.postgres), Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func twoInstancesShareTheOutbox() async throws {
        try await LedgerBackend.withTwoPostgresLedgers { a, b in
            for index in 0..<200 {
                try await a.recordNotification(Self.notification("n\(index)", original: "o\(index)", signed: Int64(index), targets: ["a"]))
            }
            let claimed = NIOLockedValueBox([String: Int]())
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, ledger) in [a, b, a, b].enumerated() {
                    group.addTask {
                        while true {
                            let entries = try await ledger.claimOutbox(Self.claim("h\(index)", at: 10_000, limit: 7, lease: 1_000_000))
                            if entries.isEmpty { return }
                            claimed.withLockedValue { seen in for entry in entries { seen[entry.notificationUUID, default: 0] += 1 } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let seen = claimed.withLockedValue { $0 }
            #expect(seen.count == 200)
            #expect(seen.values.allSatisfy { $0 == 1 }, "\(seen.filter { $0.value > 1 })")
        }
    }
}
