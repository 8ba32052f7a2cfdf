import AppStoreJWS
import AppStoreServerAPISimulator
import Crypto
import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing

/// `receiptkit notifications backfill`: the built binary against the simulator on 127.0.0.1, its settings file
/// naming the simulator as the app's `base_url`, the ledger a SQLite file. The binary reads the system clock, so the
/// notifications are dated from it.
@Suite
struct NotificationsBackfillCLITests {
    typealias A = APICLITests

    /// A notification of the app signed `hoursAgo`, first sent a minute later.
    static func add(_ store: SimulatedAppStore, _ uuid: String, hoursAgo: Double, failed: Bool = false) throws {
        let signed = Date().addingTimeInterval(-hoursAgo * 3_600)
        let authority = try A.authority.get()
        let transaction = try JWSMinter.sign(
            JWSSamplePayload.transaction(
                bundleIdentifier: A.bundle, productID: A.product, transactionID: "20000000000000\(uuid.count)\(Int(hoursAgo))",
                originalTransactionID: A.original, purchaseDate: signed, signedDate: signed),
            signer: authority.leaf, chain: authority.chain)
        store.addNotification(
            JWSSamplePayload.notification(
                type: .didRenew, notificationUUID: uuid, bundleIdentifier: A.bundle, appAppleID: A.appAppleID,
                signedDate: signed, signedTransactionInfo: transaction),
            attempts: [SimulatedSendAttempt(date: signed.addingTimeInterval(60), result: failed ? "TIMED_OUT" : "SUCCESS")])
    }

    /// A settings file for the simulator at `baseURL` and a fresh SQLite ledger; `private: false` names the key's
    /// public half only.
    static func settings(baseURL: String, name: String, private: Bool = true) throws -> (config: String, database: String) {
        let files = try A.files.get()
        let directory = A.directory.appendingPathComponent("backfill-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path
        var keyEntry = #""private_key_file": "\#(files.key)", "base_url": "\#(baseURL)""#
        if !`private` {
            let pem = directory.appendingPathComponent("key.pem")
            try Data(A.key.publicKey.pemRepresentation.utf8).write(to: pem)
            keyEntry = #""public_key_file": "\#(pem.path)""#
        }
        let config = directory.appendingPathComponent("serve.json")
        try Data(
            """
            {"database": "\(database)", "anchors": ["\(files.anchor)"],
             "app_store_server_api": [{"bundle_id": "\(A.bundle)", "issuer_id": "\(A.issuer)", "key_id": "\(A.keyID)",
                                       \(keyEntry), "environment": "production"}],
             "api_retry_max_attempts": 1}
            """.utf8
        ).write(to: config)
        return (config.path, database)
    }

    @Test("recovers what never arrived, says so per app, and a second run finds only duplicates")
    func backfillsOnce() async throws {
        let store = try A.store()
        store.pageSize = 2
        try Self.add(store, "cli-1", hoursAgo: 30)
        try Self.add(store, "cli-2", hoursAgo: 20, failed: true)
        try Self.add(store, "cli-3", hoursAgo: 2)
        try await A.withSimulator(store) { baseURL in
            let files = try Self.settings(baseURL: baseURL, name: "once")
            let first = try await CLIRunner.run(["notifications", "backfill", "--config", files.config])
            #expect(first.status == 0, "\(first.stderr)")
            let line = first.stdout.trimmingCharacters(in: .newlines)
            #expect(line.hasPrefix("\(A.bundle) Production "), "\(line)")
            #expect(line.hasSuffix(": 3 found, 3 new, 0 duplicate, 0 refused (2 pages)"), "\(line)")

            // From a date, as JSON: everything is a duplicate now; only the failed delivery with --only-failures.
            let since = RFC3339.string(Date().addingTimeInterval(-2 * 86_400)) ?? ""
            let again = try await CLIRunner.run(
                ["notifications", "backfill", "--config", files.config, "--since", since, "--json"])
            #expect(again.status == 0, "\(again.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
            #expect(object["found"] as? Int == 3 && object["new"] as? Int == 0 && object["duplicate"] as? Int == 3)
            #expect(object["completed"] as? Bool == true && object["environment"] as? String == "Production")
            let failures = try await CLIRunner.run(
                ["notifications", "backfill", "--config", files.config, "--since", since, "--only-failures", "--json"])
            #expect(failures.status == 0, "\(failures.stderr)")
            let onlyFailures = try #require(
                try JSONSerialization.jsonObject(with: Data(failures.stdout.utf8)) as? [String: Any])
            #expect(onlyFailures["found"] as? Int == 1 && onlyFailures["only_failures"] as? Bool == true)
        }
    }

    @Test("Apple unreachable: 69 and the failure; no app with a private key: 64; a bad --since: 64")
    func failuresSpeak() async throws {
        let store = try A.store()
        store.isDown = true
        try await A.withSimulator(store) { baseURL in
            let files = try Self.settings(baseURL: baseURL, name: "down")
            let down = try await CLIRunner.run(["notifications", "backfill", "--config", files.config])
            #expect(down.status == 69, "\(down.stderr)")
            #expect(down.stdout.contains("FAILED app_store_server_api: Get Notification History: "), "\(down.stdout)")

            let mirrorOnly = try Self.settings(baseURL: baseURL, name: "public", private: false)
            let none = try await CLIRunner.run(["notifications", "backfill", "--config", mirrorOnly.config])
            #expect(none.status == 64)
            #expect(none.stderr.contains("no app of app_store_server_api has a private_key_file"), "\(none.stderr)")

            let usage = try await CLIRunner.run(["notifications", "backfill", "--config", files.config, "--since", "yesterday"])
            #expect(usage.status == 64)
            #expect(usage.stderr.contains("--since takes an RFC 3339 time, not 'yesterday'"))
        }
        let revoked = try A.store()
        revoked.revokeKey(keyID: A.keyID)
        try await A.withSimulator(revoked) { baseURL in
            let files = try Self.settings(baseURL: baseURL, name: "revoked")
            let refused = try await CLIRunner.run(["notifications", "backfill", "--config", files.config])
            #expect(refused.status == 77, "\(refused.stderr)")
            #expect(refused.stdout.contains("FAILED key_refused: Get Notification History: unauthorized: "), "\(refused.stdout)")
        }
    }
}
