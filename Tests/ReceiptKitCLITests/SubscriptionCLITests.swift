import AppStoreJWS
import AppStorePKI
import Foundation
import LedgerTestSupport
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import Testing

/// `receiptkit subscription status|history|entitlements`: the service's answers read from a ledger file directly.
@Suite("receiptkit subscription")
struct SubscriptionCLITests {
    static let bundle = "com.example.app"
    static let day: TimeInterval = 86_400
    static let original = "5000000000000001"

    /// A ledger file holding one customer: a monthly subscription (renewed 5 days ago, auto-renewing) and a refunded
    /// non-consumable, all signed; and a settings file naming the subscription's entitlement.
    static func withLedger(_ body: (_ database: String, _ settings: URL, _ now: Date) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-subscription-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ledger.sqlite").path
        let now = Date()
        let authority = try JWSTestAuthority()
        func row(_ fields: [String: JSONValue]) throws -> LedgerTransaction? {
            LedgerTransaction(
                verified: try JWSTransactionPayload(fields: fields),
                jws: try JWSMinter.sign(fields, signer: authority.leaf, chain: authority.chain), environment: .production,
                source: .api)
        }
        let signed = now.addingTimeInterval(-60)
        let first = JWSSamplePayload.transaction(
            bundleIdentifier: Self.bundle, productID: "com.example.app.monthly", transactionID: Self.original,
            purchaseDate: now.addingTimeInterval(-35 * Self.day), signedDate: signed)
        let renewal = JWSSamplePayload.transaction(
            bundleIdentifier: Self.bundle, productID: "com.example.app.monthly", transactionID: "5000000000000002",
            originalTransactionID: Self.original, purchaseDate: now.addingTimeInterval(-5 * Self.day), signedDate: signed)
        var lifetime = JWSSamplePayload.transaction(
            bundleIdentifier: Self.bundle, productID: "com.example.app.lifetime", transactionID: "5000000000000101",
            type: .nonConsumable, purchaseDate: now.addingTimeInterval(-50 * Self.day), signedDate: signed)
        lifetime["revocationDate"] = JWSSamplePayload.timestamp(now.addingTimeInterval(-Self.day))
        lifetime["revocationReason"] = .number(JSONNumber(0))
        let info = JWSSamplePayload.renewalInfo(
            productID: "com.example.app.monthly", originalTransactionID: Self.original, signedDate: signed)
        let ledger = try await SQLiteLedger(path: path)
        try await ledger.migrate()
        try await ledger.apply(LedgerUpdate(
            source: .api, transactions: [try row(first), try row(renewal), try row(lifetime)].compactMap { $0 },
            renewalInfo: [
                try #require(LedgerRenewalInfo(
                    verified: try JWSRenewalInfoPayload(fields: info),
                    jws: try JWSMinter.sign(info, signer: authority.leaf, chain: authority.chain), bundleIdentifier: Self.bundle,
                    environment: .production, source: .api))
            ]))
        // The customer's receipt ties the two original transactions together.
        let ca = try TestCertificateAuthority()
        let receipt = AppReceipt(
            environment: .production, appItemIdentifier: 1, bundleIdentifier: Self.bundle, appVersion: "1",
            opaqueValue: [1], creationDate: now.addingTimeInterval(-40 * Self.day), originalPurchaseDate: now,
            originalAppVersion: "1",
            inAppPurchases: [
                InAppPurchase(
                    quantity: 1, productIdentifier: "com.example.app.monthly", transactionIdentifier: Self.original,
                    purchaseDate: now.addingTimeInterval(-35 * Self.day), originalTransactionIdentifier: Self.original,
                    originalPurchaseDate: now.addingTimeInterval(-35 * Self.day), productType: 3,
                    expiresDate: now.addingTimeInterval(-5 * Self.day), isTrialPeriod: false),
                InAppPurchase(
                    quantity: 1, productIdentifier: "com.example.app.lifetime", transactionIdentifier: "5000000000000101",
                    purchaseDate: now.addingTimeInterval(-50 * Self.day), originalTransactionIdentifier: "5000000000000101",
                    originalPurchaseDate: now.addingTimeInterval(-50 * Self.day), productType: 1, isTrialPeriod: false),
            ])
        try await ledger.record(LedgerReceipt(
            receipt, bytes: try ReceiptMinter.mint(receipt, signer: ca.receiptSigner), environment: .production, seenAt: now))
        await ledger.shutdown()
        let settings = directory.appendingPathComponent("serve.json")
        try Data(#"{"entitlements": {"com.example.app": {"com.example.app.monthly": ["pro"]}}}"#.utf8).write(to: settings)
        try await body("sqlite:" + path, settings, now)
    }

    @Test("status, history and entitlements, as text and as the service's JSON")
    func answers() async throws {
        try await Self.withLedger { database, settings, _ in
            let common = ["--database", database, "--bundle-id", Self.bundle]
            let status = try await CLIRunner.run(["subscription", "status", "5000000000000101"] + common)
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stdout.contains("group 21000001: \(Self.original) com.example.app.monthly — 1 active, latest 5000000000000002"), "\(status.stdout)")
            let statusJSON = try await CLIRunner.run(["subscription", "status", Self.original, "--json"] + common)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(statusJSON.stdout.utf8)) as? [String: Any])
            #expect(object["bundleId"] as? String == Self.bundle)
            let data = try #require(object["data"] as? [[String: Any]])
            #expect(((data.first?["lastTransactions"] as? [[String: Any]])?.first?["status"] as? Int) == 1)

            let history = try await CLIRunner.run(["subscription", "history", Self.original] + common)
            #expect(history.status == 0, "\(history.stderr)")
            let lines = history.stdout.split(separator: "\n")
            #expect(lines.count == 3, "\(history.stdout)")
            #expect(history.stdout.contains("5000000000000101 (original 5000000000000101) com.example.app.lifetime"))
            #expect(history.stdout.contains(", revoked "))

            let entitlements = try await CLIRunner.run(["subscription", "entitlements", Self.original, "--config", settings.path] + common)
            #expect(entitlements.status == 0, "\(entitlements.stderr)")
            #expect(entitlements.stdout.hasPrefix("active entitlements: pro\n"), "\(entitlements.stdout)")
            #expect(entitlements.stdout.contains("com.example.app.lifetime (original 5000000000000101): refunded"))
            #expect(entitlements.stdout.contains("com.example.app.monthly (original \(Self.original)): active, expires "))
            #expect(entitlements.stdout.contains(", renews [pro]"))
            // Thirty days on, the monthly subscription has lapsed (nothing renewed it in the ledger).
            let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(30 * Self.day))
            let lapsed = try await CLIRunner.run(
                ["subscription", "entitlements", Self.original, "--json", "--at", later, "--config", settings.path] + common)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(lapsed.stdout.utf8)) as? [String: Any])
            #expect(answer["active_entitlements"] as? [String] == [])
        }
    }

    @Test("an unknown customer exits 1, bad options 64, a ledger not at this build's schema 69")
    func failures() async throws {
        try await Self.withLedger { database, _, _ in
            let common = ["--database", database, "--bundle-id", Self.bundle]
            let unknown = try await CLIRunner.run(["subscription", "entitlements", "5000000000000999"] + common)
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("the ledger knows no such customer"), "\(unknown.stderr)")
            let unknownStatus = try await CLIRunner.run(["subscription", "status", "5000000000000999"] + common)
            #expect(unknownStatus.status == 1)
            #expect(try await CLIRunner.run(["subscription", "status", "12a"] + common).status == 64)
            #expect(try await CLIRunner.run(["subscription", "status", Self.original, "--environment", "prod"] + common).status == 64)
            #expect(try await CLIRunner.run(["subscription", "entitlements"] + common).status == 64)
            #expect(try await CLIRunner.run(["subscription", "status", Self.original, "--database", database]).status == 64, "no --bundle-id")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-subscription-empty-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try await CLIRunner.run([
            "subscription", "status", Self.original, "--database", "sqlite:" + directory.appendingPathComponent("new.sqlite").path,
            "--bundle-id", Self.bundle,
        ])
        #expect(empty.status == 69, "never migrated: \(empty.stderr)")
    }
}
