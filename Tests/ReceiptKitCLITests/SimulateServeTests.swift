import Foundation
import LedgerTestSupport
import LoopbackHTTPSupport
import ReceiptKitTesting
import ReceiptKit
import Testing

/// The App Store in a box against the service (issue 47 §3): `simulate play` POSTs a scenario's notifications to a
/// running `receiptkit serve` with a third dropped, some shuffled and some sent twice, while the app's forwarding
/// target refuses everything (503); one `notifications backfill` from the simulator's Get Notification History then
/// recovers exactly the dropped ones (the rest are duplicates); the target recovers, and has then acknowledged every
/// notification exactly once, each customer's in `signedDate` order; the ledger tells each customer's subscription as
/// the scenario expects and its outbox is empty. On SQLite one instance plays and a second forwards after the
/// backfill; on PostgreSQL two instances share the ledger throughout.
@Suite("receiptkit simulate against receiptkit serve", .serialized)
struct SimulateServeTests {
    @Test func onSQLiteADroppedShuffledPlayAndOneBackfillLeaveLedgerAndTargetAsTheScenarioSays() async throws {
        try await Self.endToEnd(postgres: nil)
    }

    @Test(.enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
    func onPostgreSQLTwoInstancesSharingTheLedgerDoTheSame() async throws {
        try await LedgerBackend.withPostgresDatabase { url in try await Self.endToEnd(postgres: url) }
    }

    /// A notification the target acknowledged, read from the request it was sent.
    struct Delivery {
        let uuid: String
        let originalTransactionID: String
        let signedDate: Int
    }

    static func deliveries(_ receiver: RecordingHTTPHandler) -> [Delivery] {
        receiver.received.compactMap { request in
            guard request.status == 200,
                let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                let signed = object["signedPayload"] as? String
            else { return nil }
            let part = signed.split(separator: ".").dropFirst().first.map(String.init) ?? ""
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard let data = Data(base64Encoded: base64),
                let payload = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let uuid = payload["notificationUUID"] as? String, let date = payload["signedDate"] as? Int,
                let original = request.header("X-ReceiptKit-Original-Transaction-Id")
            else { return nil }
            return Delivery(uuid: uuid, originalTransactionID: original, signedDate: date)
        }
    }

    static func endToEnd(postgres: String?) async throws {
        let receiver = RecordingHTTPHandler { _, _, _ in (503, "") }
        try await Loopback.withServer(receiver) { receiverPort in
            try await Self.endToEnd(postgres: postgres, receiver: receiver, receiverPort: receiverPort)
        }
    }

    static func endToEnd(postgres: String?, receiver: RecordingHTTPHandler, receiverPort: Int) async throws {
        let directory = SimulateCLITests.directory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = directory.appendingPathComponent("ca"), out = directory.appendingPathComponent("out")
        #expect(try await CLIRunner.run(["mint", "jws-ca", "--out", ca.path]).status == 0)
        let database = postgres ?? "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path
        let config = directory.appendingPathComponent("serve.json")
        try Data(
            #"{"database": "\#(database)", "database_max_connections": 4, "anchors": ["\#(ca.appendingPathComponent("root.cer").path)"], "notification_max_age_seconds": 31536000, "notification_targets": [{"bundle_id": "com.example.receiptkit", "url": "http://127.0.0.1:\#(receiverPort)/n", "name": "backend"}]}"#
                .utf8
        ).write(to: config)
        // Errors only: the target's refusals are logged, and nothing reads these processes' standard error.
        let quiet = ["--config", config.path, "--log-level", "error"]
        var instances = [try ServeCLITests.Server(quiet)]
        if postgres != nil { instances.append(try ServeCLITests.Server(quiet)) }
        defer { for instance in instances where instance.process.isRunning { instance.process.terminate() } }

        let play = try await ScenarioPlay.start(
            [
                "--scenario", SimulateCLITests.renewals, "--notify", "http://127.0.0.1:\(instances[0].port)/notifications/v2",
                "--ca", ca.path, "--output", out.path, "--drop", "0.3", "--shuffle", "--duplicate", "0.2", "--seed", "21",
                "--speed", "1e12",
            ], in: directory)
        defer { play.process.terminate() }
        let (notifications, acknowledged, failed, duplicates, dropped) = (
            play.notifications, play.acknowledged, play.failed, play.duplicates, play.dropped
        )
        #expect(notifications == 13 && failed == 0 && dropped > 0 && duplicates > 0, "\(play.text)")
        #expect(acknowledged == notifications - dropped + duplicates)
        // SQLite: one process owns the file, so the instance that took the play stops before the backfill.
        if postgres == nil { #expect(instances[0].stop() == 0) }

        // One backfill: the dropped notifications are new, everything delivered is a duplicate.
        let since = RFC3339.string(Date().addingTimeInterval(-90 * 86_400)) ?? ""
        // serve's settings with the simulator's app_store_server_api entry, as a team would merge them.
        var merged = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: config)) as? [String: Any])
        let simulated = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("service-settings.json"))) as? [String: Any])
        merged["app_store_server_api"] = simulated["app_store_server_api"]
        let backfillConfig = directory.appendingPathComponent("backfill.json")
        try JSONSerialization.data(withJSONObject: merged).write(to: backfillConfig)
        let backfill = try await CLIRunner.run([
            "notifications", "backfill", "--database", database, "--config", backfillConfig.path,
            "--since", since, "--json",
        ])
        #expect(backfill.status == 0, "\(backfill.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(backfill.stdout.utf8)) as? [String: Any], "\(backfill.stdout)")
        #expect(object["found"] as? Int == notifications, "\(backfill.stdout)")
        #expect(object["new"] as? Int == dropped, "\(backfill.stdout)")
        #expect(object["duplicate"] as? Int == notifications - dropped, "\(backfill.stdout)")
        #expect((object["refused"] as? [String: Any])?.isEmpty == true, "\(backfill.stdout)")
        play.process.terminate()

        // Everything the target refused waits in the outbox with what the backfill added; the target recovers.
        receiver.answer { _, _, _ in (200, "") }
        if postgres == nil { instances = [try ServeCLITests.Server(quiet)] }
        let forwardDeadline = Date().addingTimeInterval(120)
        while Date() < forwardDeadline, Set(Self.deliveries(receiver).map(\.uuid)).count < notifications {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(500))
        for instance in instances { #expect(instance.stop() == 0) }
        let delivered = Self.deliveries(receiver)
        // While the target refused, each original transaction's first notification was tried (its later ones wait
        // behind it).
        let refused = receiver.received.filter { $0.status == 503 }
        #expect(Set(refused.compactMap { $0.header("X-ReceiptKit-Original-Transaction-Id") }).count == 4)
        #expect(receiver.received.count == refused.count + delivered.count)
        #expect(delivered.count == notifications && Set(delivered.map(\.uuid)).count == notifications,
            "\(delivered.count) acknowledged, \(Set(delivered.map(\.uuid)).count) distinct")
        // Each customer's (original transaction's) notifications arrived in signedDate order.
        let byOriginal = Dictionary(grouping: delivered, by: \.originalTransactionID)
        #expect(byOriginal.count == 4)
        for (original, sent) in byOriginal {
            #expect(sent.map(\.signedDate) == sent.map(\.signedDate).sorted(), "\(original): \(sent.map(\.signedDate))")
        }

        // Each customer's subscription in the ledger, as the scenario expects (Apple's status codes).
        let expected = ["ana": 2, "ben": 1, "cyd": 2, "dot": 3]
        for (customer, status) in expected {
            let original = try #require(play.originalTransactionID(of: customer, product: "com.example.pro.monthly"), "\(play.text)")
            let answer = try await CLIRunner.run([
                "subscription", "status", original, "--database", database, "--bundle-id", "com.example.receiptkit",
                "--environment", "Sandbox", "--json",
            ])
            #expect(answer.status == 0, "\(customer): \(answer.stderr)")
            #expect(answer.stdout.contains(#""status":\#(status)"#) || answer.stdout.contains(#""status" : \#(status)"#), "\(customer): \(answer.stdout)")
        }
        let outbox = try await CLIRunner.run(["notifications", "outbox", "list", "--database", database])
        #expect(outbox.status == 0 && outbox.stdout.isEmpty, "\(outbox.stdout) \(outbox.stderr)")
    }
}
