import Foundation
import ReceiptKit
import ReceiptLedger
import Testing

/// `receiptkit notifications outbox list|retry|drop`: the built binary on a SQLite ledger file whose outbox the
/// test wrote through the library.
@Suite
struct NotificationsOutboxCLITests {
    static let directory = CLITests.scratch.appendingPathComponent("outbox")

    /// A ledger file with three notifications for targets `a` and `b`; `n1`'s entry of `a` parked.
    static func ledger(_ name: String) async throws -> String {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        let path = Self.directory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
        let ledger = try await SQLiteLedger(path: path)
        do {
            try await ledger.migrate()
            for (index, uuid) in ["n1", "n2", "n3"].enumerated() {
                let signed = Int64(1_750_000_000_000 + index * 1_000)
                try await ledger.recordNotification(
                    LedgerNotification(
                        notificationUUID: uuid, environment: .production, bundleIdentifier: "com.example.app",
                        notificationType: "DID_RENEW", subtype: index == 2 ? "BILLING_RECOVERY" : nil, signedMilliseconds: signed,
                        receivedMilliseconds: signed + 10, payloadJSON: Array("{}".utf8), transaction: nil, renewalInfo: nil,
                        forwarding: LedgerForwarding(
                            targets: ["a", "b"], body: Array(#"{"signedPayload":"x"}"#.utf8), deadlineMilliseconds: signed + 86_400_000)))
            }
            let claimed = try await ledger.claimOutbox(
                LedgerOutboxClaim(targets: ["a"], holder: "t", atMilliseconds: 1_760_000_000_000, leaseMilliseconds: 1, limit: 1))
            let first = try #require(claimed.first)
            try await ledger.settleOutbox([
                LedgerOutboxSettlement(target: "a", notificationUUID: first.notificationUUID, holder: "t", outcome: .parked(error: "HTTP 500"))
            ])
        } catch {
            await ledger.shutdown()
            throw error
        }
        await ledger.shutdown()
        return "sqlite:" + path
    }

    @Test("list shows every entry, oldest first, with each target's totals; --state and --target narrow it; --json")
    func list() async throws {
        let database = try await Self.ledger("list")
        let all = try await CLIRunner.run(["notifications", "outbox", "list", "--database", database])
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines.first == "a n1 parked DID_RENEW Production com.example.app signed 2025-06-15T15:06:40Z, attempts 1, deadline 2025-06-16T15:06:40Z: HTTP 500")
        #expect(lines.contains("b n3 pending DID_RENEW/BILLING_RECOVERY Production com.example.app signed 2025-06-15T15:06:42Z, attempts 0, next 2025-06-15T15:06:42.010Z, deadline 2025-06-16T15:06:42Z"))
        #expect(all.stderr.contains("a: 2 pending, 1 parked") && all.stderr.contains("b: 3 pending, 0 parked"), "\(all.stderr)")

        let parked = try await CLIRunner.run(["notifications", "outbox", "list", "--database", database, "--state", "parked", "--json"])
        #expect(parked.status == 0, "\(parked.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(parked.stdout.utf8)) as? [String: Any])
        #expect(object["target"] as? String == "a" && object["notification_uuid"] as? String == "n1")
        #expect(object["state"] as? String == "parked" && object["last_error"] as? String == "HTTP 500" && object["attempts"] as? Int == 1)

        let target = try await CLIRunner.run(["notifications", "outbox", "list", "--database", database, "--target", "b", "--limit", "2"])
        #expect(target.stdout.split(separator: "\n").count == 2)
        #expect(!target.stderr.contains("a: "))
    }

    @Test("retry makes parked entries due now; drop deletes; nothing matched exits 1; a filter is required")
    func retryAndDrop() async throws {
        let database = try await Self.ledger("retry")
        let retried = try await CLIRunner.run(["notifications", "outbox", "retry", "--database", database, "--target", "a"])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdout == "1 entry retried\n")
        let again = try await CLIRunner.run(["notifications", "outbox", "retry", "--database", database, "--all"])
        #expect(again.status == 1 && again.stdout == "0 entries retried\n")
        let list = try await CLIRunner.run(["notifications", "outbox", "list", "--database", database, "--state", "parked"])
        #expect(list.stdout.isEmpty)

        let dropped = try await CLIRunner.run(["notifications", "outbox", "drop", "--database", database, "--uuid", "n2"])
        #expect(dropped.status == 0 && dropped.stdout == "2 entries dropped\n", "\(dropped.stderr)")
        let none = try await CLIRunner.run(["notifications", "outbox", "drop", "--database", database, "--uuid", "n2"])
        #expect(none.status == 1)

        for arguments in [["retry"], ["drop"], ["list", "--limit", "0"], ["list", "--state", "delivered"]] {
            let usage = try await CLIRunner.run(["notifications", "outbox"] + arguments + ["--database", database])
            #expect(usage.status == 64, "\(arguments): \(usage.stderr)")
        }
    }

    @Test("a database that cannot be opened exits as serve would")
    func unavailable() async throws {
        let result = try await CLIRunner.run(["notifications", "outbox", "list", "--database", "postgres://nobody@127.0.0.1:1/none"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("receiptkit: database postgres://nobody@127.0.0.1:1/none"), "\(result.stderr)")
    }
}
