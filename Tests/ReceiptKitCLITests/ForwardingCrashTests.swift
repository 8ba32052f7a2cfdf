import AppStoreJWS
import Foundation
import LoopbackHTTPSupport
import NIOConcurrencyHelpers
import ReceiptKit
import ReceiptKitTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// At least once, and no more than that: `receiptkit serve` forwarding to a receiver that stalls some requests,
/// killed with SIGKILL mid-delivery, then started again on the same ledger, delivers every notification it
/// acknowledged to Apple; a notification is delivered twice only when the kill caught its attempt in flight.
@Suite("receiptkit serve: forwarding through a crash", .serialized)
struct ForwardingCrashTests {
    @Test("SIGKILL mid-delivery: every acknowledged notification reaches the target after a restart; duplicates only of attempts in flight")
    func forwardingSurvivesSIGKILL() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-forward-crash-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try JWSTestAuthority()
        let root = directory.appendingPathComponent("jws-root.cer")
        try CrashDurabilityTests.writeDER(authority.root.certificate, to: root)
        let path = directory.appendingPathComponent("ledger.sqlite").path
        // Every fifth request is never answered (the attempt times out after 1 s); the rest are acknowledged.
        let receiver = RecordingHTTPHandler { index, _, _ in index % 5 == 4 ? nil : (200, "") }
        try await Loopback.withServer(receiver) { port in
            let settings = directory.appendingPathComponent("serve.json")
            try Data(
                """
                {"database": "sqlite:\(path)", "anchors": ["\(root.path)"],
                 "notification_targets": [{"bundle_id": "\(CrashDurabilityTests.bundle)", "url": "http://127.0.0.1:\(port)/n", "name": "backend"}],
                 "notification_forwarding": {"attempt_timeout_seconds": 1, "max_in_flight": 4}}
                """.utf8
            ).write(to: settings)
            let arguments = ["--config", settings.path]
            let server = try ServeCLITests.Server(arguments)
            var acknowledged: [String] = []
            let now = Date()
            for index in 0..<60 {
                let body = try CrashDurabilityTests.notification(authority: authority, client: 1, index: index, now: now)
                let answer = try await server.post("/notifications/v2", json: body)
                #expect(answer["status"] as? String == "recorded")
                if let uuid = answer["notificationUUID"] as? String { acknowledged.append(uuid) }
            }
            // Killed while sending: some delivered, others in flight or still waiting.
            let deadline = Date().addingTimeInterval(60)
            while receiver.received.count < 15, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            kill(server.process.processIdentifier, SIGKILL)
            server.waitForExit()
            let beforeKill = receiver.received.count
            // The restarted instance finds the target well: what it sends is what the first left pending, stalled
            // or in flight (those after their leases lapse, the stalled ones after their backoff).
            receiver.answer { _, _, _ in (200, "") }
            #expect(beforeKill >= 15 && beforeKill < 75, "\(beforeKill) requests before the kill")

            let restarted = try ServeCLITests.Server(arguments)
            let expected = Set(acknowledged)
            func answered() -> [String: Int] {
                var counts: [String: Int] = [:]
                for request in receiver.received where request.status == 200 {
                    counts[request.header("X-ReceiptKit-Notification-UUID") ?? "", default: 0] += 1
                }
                return counts
            }
            let waitUntil = Date().addingTimeInterval(120)
            while Set(answered().keys) != expected, Date() < waitUntil { try await Task.sleep(for: .milliseconds(50)) }
            #expect(restarted.stop() == 0)

            let counts = answered()
            let outbox = try await CLIRunner.run(["notifications", "outbox", "list", "--config", settings.path])
            #expect(outbox.status == 0 && outbox.stdout.isEmpty, "\(outbox.stdout)\(outbox.stderr)")
            #expect(Set(counts.keys) == expected, "missing: \(expected.subtracting(counts.keys).sorted())")
            // Twice only when the kill caught the attempt between the target's 200 and its recording: at most the
            // attempts in flight then (max_in_flight).
            let twice = counts.filter { $0.value > 1 }
            #expect(twice.count <= 4, "\(twice)")
            #expect(acknowledged.count == 60)
        }
    }
}
