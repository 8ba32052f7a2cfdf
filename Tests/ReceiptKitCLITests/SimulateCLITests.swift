import AppStoreJWS
import AppStorePKI
import Foundation
import LoopbackHTTPSupport
import ReceiptKit
import SwiftASN1
import Testing
import X509

/// `receiptkit simulate` (issue 47 §3): `check` prints a shipped example's notifications and end states and ends with
/// the documented statuses; `play` POSTs signed notifications to a receiver here (dropped and duplicated as asked),
/// each verifying against the root it wrote, and writes settings for `receiptkit serve`.
struct SimulateCLITests {
    static let directory = CLITests.scratch.appendingPathComponent("simulate")
    static let renewals = CLIRunner.packageRoot.appendingPathComponent("Examples/Scenarios/renewals.json").path

    static func write(_ text: String, _ name: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    @Test func checkPrintsTheNotificationsAndEndStates() async throws {
        let output = try await CLIRunner.run(["simulate", "check", Self.renewals, "--seed", "7"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(" SUBSCRIBED/INITIAL_BUY ") }.count == 4)
        #expect(lines.contains { $0.contains(" EXPIRED/VOLUNTARY ana ") })
        #expect(lines.contains { $0.contains(" EXPIRED/BILLING_RETRY cyd ") })
        #expect(lines.contains("  dot com.example.pro.monthly: billing_retry"))
        #expect(lines.contains("  ana com.example.pro.monthly: expired"))
        #expect(lines.contains("  ben com.example.pro.monthly: active"))
        let again = try await CLIRunner.run(["simulate", "check", Self.renewals, "--seed", "7", "--start", "2026-01-01T00:00:00Z"])
        #expect(again.stdout.hasPrefix("2026-01-01T00:00:00Z SUBSCRIBED/INITIAL_BUY ana"), "\(again.stdout)")
    }

    @Test func checkEndsWithTheDocumentedStatuses() async throws {
        let text = try String(contentsOfFile: Self.renewals, encoding: .utf8)
        let unmet = try Self.write(text.replacingOccurrences(of: "\"state\": \"expired\"", with: "\"state\": \"active\""), "unmet.json")
        #expect(try await CLIRunner.run(["simulate", "check", unmet]).status == 1)
        let malformed = try Self.write("{\"apps\": [", "malformed.json")
        let refused = try await CLIRunner.run(["simulate", "check", malformed])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("scenario_malformed"), "\(refused.stderr)")
        let impossible = try Self.write(text.replacingOccurrences(of: "\"event\": \"billing_recovery\"", with: "\"event\": \"grace_period_expired\", \"note\": \"before the grace ends\""), "impossible.json")
        let told = try await CLIRunner.run(["simulate", "check", impossible])
        #expect(told.status == 65)
        #expect(told.stderr.contains("scenario_impossible_event"), "\(told.stderr)")
        #expect(try await CLIRunner.run(["simulate", "check", Self.directory.appendingPathComponent("absent.json").path]).status == 66)
    }

    @Test func playPostsVerifiableNotificationsDroppedAndDuplicatedAsAsked() async throws {
        let receiver = RecordingHTTPHandler { _, _, _ in (200, "") }
        let output = Self.directory.appendingPathComponent("play")
        try? FileManager.default.removeItem(at: output)
        try await Loopback.withServer(receiver) { port in
            let run = try await CLIRunner.run(
                [
                    "simulate", "play", "--scenario", Self.renewals, "--notify", "http://127.0.0.1:\(port)/notifications",
                    "--start", "2026-09-01T00:00:00Z", "--speed", "1e12", "--seed", "11", "--drop", "0.3",
                    "--duplicate", "0.5", "--shuffle", "--output", output.path, "--exit-when-done",
                ], timeout: .seconds(120))
            #expect(run.status == 0, "\(run.stderr)")
            let summary = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("played: ") })
            let received = receiver.received
            #expect(summary.contains("\(received.count) POSTs acknowledged"), "\(summary)")
            #expect(received.allSatisfy { $0.header("Content-Type") == "application/json" })

            let root = try Certificate(derEncoded: Array(Data(contentsOf: output.appendingPathComponent("root.cer"))))
            let verifier = JWSVerifier(
                policy: JWSVerificationPolicy(
                    anchors: AppStoreTrustAnchors([root]), bundleIdentifier: "com.example.receiptkit", environment: .sandbox),
                cache: nil)
            var uuids: [String] = []
            for request in received {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
                let signed = try #require(object["signedPayload"] as? String)
                let result = try await verifier.verifyNotification(signed, now: Date(timeIntervalSince1970: 1_800_000_000))
                #expect(result.isValid, "\(result.notification.failures)")
                uuids.append(try #require(result.notification.payload.fields["notificationUUID"]?.stringValue))
            }
            // "played: 13 notifications, A POSTs acknowledged, F failed, D duplicates, P dropped"
            let counts = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            try #require(counts.count == 5, "\(summary)")
            let (notifications, failed, duplicates, dropped) = (counts[0], counts[2], counts[3], counts[4])
            #expect(notifications == 13 && failed == 0)
            #expect(Set(uuids).count == notifications - dropped)
            #expect(uuids.count - Set(uuids).count == duplicates)
            #expect(dropped > 0 && duplicates > 0, "seed 11 drops and duplicates some: \(summary)")
            let settings = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("service-settings.json"))) as? [String: Any])
            let api = try #require((settings["app_store_server_api"] as? [[String: Any]])?.first)
            #expect(api["bundle_id"] as? String == "com.example.receiptkit")
            let keyFile = try #require(api["private_key_file"] as? String)
            #expect(FileManager.default.fileExists(atPath: keyFile))
        }
    }
}
