import AppStoreJWS
import Crypto
import Foundation
import ReceiptKit
import AppStoreServerAPISimulator
import ReceiptKitTesting
import SharedFixtures
import SwiftASN1
import Testing
import X509

/// `receiptkit api`: the built binary against `AppStoreServerSimulator` on 127.0.0.1 (`--base-url`), with the
/// simulator's test authority as `--anchor` and a `.p8` written here. The binary reads the system clock (it signs its
/// bearer tokens with it), so the simulator runs on the system clock too and the data is dated from `now`.
@Suite(.serialized)
struct APICLITests {
    static let now = Date()
    static let bundle = "com.example.app"
    static let appAppleID: Int64 = 1_234_567
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "CLIKEY0001"
    static let key = P256.Signing.PrivateKey()
    static let original = "1000000000000001"
    static let product = "com.example.app.pro"
    static let directory = CLITests.scratch.appendingPathComponent("api")
    static let authority: Result<JWSTestAuthority, any Error> = Result { try JWSTestAuthority() }

    /// The `.p8` file and the anchor, written once.
    static let files: Result<(key: String, anchor: String), any Error> = Result {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("AuthKey_\(keyID).p8")
        try Data(Self.key.pemRepresentation.utf8).write(to: key)
        let anchor = directory.appendingPathComponent("root.pem")
        try Data(try Self.authority.get().root.certificate.serializeAsPEM().pemString.utf8).write(to: anchor)
        return (key.path, anchor.path)
    }

    static func transactionID(_ period: Int) -> String { String(format: "10000000000000%02d", period) }

    /// A store with the app, the key, and a subscription of five 30-day periods (…01 to …05) whose fifth is active.
    static func store() throws -> SimulatedAppStore {
        _ = try Self.files.get()
        let store = SimulatedAppStore()
        store.addApp(bundleIdentifier: Self.bundle, appAppleID: Self.appAppleID)
        store.register(SimulatedAPIKey(keyID: Self.keyID, issuerID: Self.issuer, publicKey: Self.key.publicKey))
        for period in 1...5 {
            let purchased = Self.now.addingTimeInterval(-Double(6 - period) * 30 * 86_400 + 86_400)
            try store.add(
                transaction: JWSSamplePayload.transaction(
                    bundleIdentifier: Self.bundle,
                    productID: Self.product,
                    transactionID: Self.transactionID(period),
                    originalTransactionID: Self.original,
                    purchaseDate: purchased,
                    signedDate: purchased
                )
            )
        }
        try store.setRenewalInfo(
            JWSSamplePayload.renewalInfo(
                productID: Self.product,
                originalTransactionID: Self.original,
                signedDate: Self.now
            )
        )
        return store
    }

    /// Runs `body` with the simulator's base URL; `signer` signs its answers (the test authority by default).
    static func withSimulator<T: Sendable>(
        _ store: SimulatedAppStore,
        signer: JWSTestAuthority? = nil,
        _ body: @Sendable (String) async throws -> T
    ) async throws -> T {
        let simulator = AppStoreServerSimulator(
            store: store,
            authority: try signer ?? Self.authority.get(),
            now: { Date() }
        )
        return try await simulator.run(body)
    }

    /// The options every `receiptkit api` subcommand takes, for the simulator at `baseURL`.
    static func common(baseURL: String, key: String? = nil) throws -> [String] {
        let files = try Self.files.get()
        return [
            "--issuer-id", Self.issuer, "--key-id", Self.keyID, "--private-key", key ?? files.key,
            "--bundle-id", Self.bundle, "--base-url", baseURL, "--anchor", files.anchor,
        ]
    }

    /// `receiptkit api <arguments> <the common options>`.
    static func api(_ arguments: [String], baseURL: String, key: String? = nil) async throws -> CLIRunner.Output {
        try await CLIRunner.run(["api"] + arguments + Self.common(baseURL: baseURL, key: key))
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: Each subcommand

    @Test func historyFollowsEveryPageAndPrintsEveryTransaction() async throws {
        let store = try Self.store()
        store.pageSize = 2
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["history", Self.transactionID(3)], baseURL: url),
                try await Self.api(["history", Self.transactionID(3), "--json"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr == "")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Production \(Self.bundle) app \(Self.appAppleID): 5 transactions")
        #expect(lines.dropFirst().map { String($0.prefix(16)) } == (1...5).map(Self.transactionID))
        for line in lines.dropFirst() {
            #expect(line.contains(" original \(Self.original) \(Self.product) purchased "))
            #expect(line.contains(" expires "))
        }
        #expect(store.requestCount(.transactionHistory) == 6)  // three pages, twice

        #expect(json.status == 0, "\(json.stderr)")
        let object = try Self.json(json.stdout)
        let transactions = try #require(object["signedTransactions"] as? [[String: Any]])
        #expect(transactions.compactMap { $0["transactionId"] as? String } == (1...5).map(Self.transactionID))
        #expect(transactions.allSatisfy { $0["bundleId"] as? String == Self.bundle })
        #expect(object["hasMore"] as? Bool == false)
        #expect(object["environment"] as? String == "Production")
    }

    @Test func historyPassesTheFiltersToApple() async throws {
        let store = try Self.store()
        store.revoke(transactionID: Self.transactionID(4), at: Self.now, reason: 0)
        let (revoked, consumables, shared, grouped) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(
                    ["history", Self.original, "--revoked", "true", "--sort", "descending"],
                    baseURL: url
                ),
                try await Self.api(["history", Self.original, "--product-type", "consumable"], baseURL: url),
                try await Self.api(["history", Self.original, "--in-app-ownership-type", "family-shared"], baseURL: url),
                try await Self.api(
                    ["history", Self.original, "--subscription-group-identifier", "99999999",
                     "--in-app-ownership-type", "purchased"], baseURL: url)
            )
        }
        // Issue 48: the ownership and subscription group filters reach Apple's query (the customer's purchases are
        // their own, of another group).
        #expect(shared.stdout == "Production \(Self.bundle) app \(Self.appAppleID): 0 transactions\n", "\(shared.stderr)")
        #expect(grouped.stdout == "Production \(Self.bundle) app \(Self.appAppleID): 0 transactions\n", "\(grouped.stderr)")
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(
            revoked.stdout.split(separator: "\n").dropFirst().map { String($0.prefix(16)) } == [Self.transactionID(4)]
        )
        #expect(consumables.stdout == "Production \(Self.bundle) app \(Self.appAppleID): 0 transactions\n")
        let queries = store.requests.map(\.uri)
        #expect(queries.contains { $0.contains("revoked=true") && $0.contains("sort=DESCENDING") })
        #expect(queries.contains { $0.contains("productType=CONSUMABLE") })
        #expect(queries.contains { $0.contains("inAppOwnershipType=FAMILY_SHARED") })
        #expect(queries.contains { $0.contains("subscriptionGroupIdentifier=99999999") && $0.contains("inAppOwnershipType=PURCHASED") })
    }

    @Test func transactionPrintsTheVerifiedTransaction() async throws {
        let store = try Self.store()
        store.revoke(transactionID: Self.transactionID(2), at: Self.now, reason: 1)
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["transaction", Self.transactionID(2)], baseURL: url),
                try await Self.api(["transaction", Self.transactionID(2), "--json"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        guard case .number(let purchased)? = store.transaction(id: Self.transactionID(2))?["purchaseDate"] else {
            Issue.record("the stored transaction has no purchaseDate")
            return
        }
        let milliseconds = try #require(purchased.double)
        let expected =
            "\(Self.transactionID(2)) original \(Self.original) \(Self.product) purchased "
            + (try #require(RFC3339.string(Date(timeIntervalSince1970: milliseconds / 1000))))
        #expect(text.stdout.hasPrefix(expected))
        #expect(text.stdout.hasSuffix(" reason 1\n"))
        #expect(text.stdout.contains(" revoked "))
        let object = try Self.json(json.stdout)
        let payload = try #require(object["signedTransactionInfo"] as? [String: Any])
        #expect(payload["transactionId"] as? String == Self.transactionID(2))
        #expect(payload["revocationReason"] as? Int == 1)
    }

    @Test func appTransactionPrintsTheVerifiedAppTransactionOrApplesError() async throws {
        let store = try Self.store()
        let purchased = Self.now.addingTimeInterval(-200 * 86_400)
        var appTransaction = JWSSamplePayload.appTransaction(
            bundleIdentifier: Self.bundle, appAppleID: Self.appAppleID, applicationVersion: "3.1", signedDate: purchased)
        appTransaction["originalApplicationVersion"] = .string("1.0")
        store.setAppTransaction(appTransaction, customer: Self.original)
        let (text, json, byAppTransactionID) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["app-transaction", Self.transactionID(3)], baseURL: url),
                try await Self.api(["app-transaction", Self.transactionID(3), "--json"], baseURL: url),
                try await Self.api(["app-transaction", "70\(Self.appAppleID)"], baseURL: url)
            )
        }
        guard case .number(let stamp)? = appTransaction["originalPurchaseDate"], let milliseconds = stamp.double else {
            Issue.record("the app transaction has no originalPurchaseDate")
            return
        }
        let date = try #require(RFC3339.string(Date(timeIntervalSince1970: milliseconds / 1000)))
        let line = "app transaction 70\(Self.appAppleID) \(Self.bundle) version 3.1 original 1.0 purchased \(date) iOS Production\n"
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == line)
        #expect(byAppTransactionID.stdout == line, "\(byAppTransactionID.stderr)")
        #expect(json.status == 0, "\(json.stderr)")
        let payload = try #require(try Self.json(json.stdout)["signedAppTransactionInfo"] as? [String: Any])
        #expect(payload["appTransactionId"] as? String == "70\(Self.appAppleID)")
        #expect(payload["originalApplicationVersion"] as? String == "1.0")

        // A customer without an app transaction: Apple's error, exit 65.
        let missing = try await Self.withSimulator(try Self.store()) { url in
            try await Self.api(["app-transaction", Self.transactionID(3), "--json"], baseURL: url)
        }
        #expect(missing.status == 65)
        let error = try #require(try Self.json(missing.stdout)["error"] as? [String: Any])
        #expect(error["errorCode"] as? Int == 4_040_019)
        #expect(error["errorMessage"] as? String == "No AppTransaction exists for the customer.")
    }

    /// Apple's own client (app-store-server-library, PyPI: `Scripts/apple-client.py`) against the simulator's Get App
    /// Transaction Info, its base URL the one change: Apple's `SignedDataVerifier` takes the app transaction; an id
    /// the simulator does not know is Apple's 4040010, one without an app transaction 4040019.
    @Test(.enabled(if: AppleLibrary.isInstalled || AppleLibrary.isRequired, "app-store-server-library is not installed (.ci/run installs it)"))
    func applesClientReadsTheAppTransaction() async throws {
        let store = try Self.store()
        // Apple's verifier holds Production app transactions to an app Apple ID; the script names 1.
        store.setAppTransaction(
            JWSSamplePayload.appTransaction(bundleIdentifier: Self.bundle, appAppleID: 1, signedDate: Self.now),
            customer: Self.original)
        try store.add(
            transaction: JWSSamplePayload.transaction(
                bundleIdentifier: Self.bundle, productID: Self.product, transactionID: "4000000000000001",
                purchaseDate: Self.now, signedDate: Self.now))
        var serializer = DER.Serializer()
        try serializer.serialize(try Self.authority.get().root.certificate)
        let root = Self.directory.appendingPathComponent("root.cer")
        try Data(serializer.serializedBytes).write(to: root)
        let script = CLIRunner.packageRoot.appendingPathComponent("Scripts/apple-client.py")
        let output = try await Self.withSimulator(store) { url in
            try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["NO_PROXY=127.0.0.1", "python3", script.path, url, try Self.files.get().key, Self.keyID, Self.issuer,
                 Self.bundle, "Production", root.path, "app-transaction=\(Self.transactionID(3))",
                 "app-transaction=9999999999999999", "app-transaction=4000000000000001"])
        }
        try #require(output.status == 0, "\(output.text)")
        let lines = try output.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        try #require(lines.count == 3, "\(output.text)")
        #expect(lines[0]["ok"] as? Bool == true, "\(lines[0])")
        #expect(lines[0]["appTransactionId"] as? String == "701")
        #expect(lines[0]["bundleId"] as? String == Self.bundle)
        #expect(lines[1]["ok"] as? Bool == false)
        #expect(lines[1]["httpStatus"] as? Int == 404)
        #expect(lines[1]["apiError"] as? Int == 4_040_010)
        #expect(lines[2]["httpStatus"] as? Int == 404)
        #expect(lines[2]["apiError"] as? Int == 4_040_019)
    }

    @Test func statusesPrintEachGroupWithTransactionAndRenewalInfo() async throws {
        let store = try Self.store()
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["statuses", Self.original], baseURL: url),
                try await Self.api(["statuses", Self.original, "--json"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "group 21000001")
        #expect(lines.dropFirst().first == "  \(Self.original) status 1 active")
        #expect(lines.dropFirst(2).first?.hasPrefix("    \(Self.transactionID(5)) original \(Self.original) ") == true)
        #expect(
            lines.dropFirst(3).first?.hasPrefix("    renewal \(Self.original) auto-renew on \(Self.product) renews ")
                == true
        )
        let object = try Self.json(json.stdout)
        let groups = try #require(object["data"] as? [[String: Any]])
        let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
        #expect((last["signedTransactionInfo"] as? [String: Any])?["transactionId"] as? String == Self.transactionID(5))
        #expect((last["signedRenewalInfo"] as? [String: Any])?["autoRenewStatus"] as? Int == 1)
        #expect(last["status"] as? Int == 1)
    }

    @Test func lookupPrintsTheOrdersTransactions() async throws {
        let store = try Self.store()
        store.addOrder(orderID: "MK5TTTVWJH", transactionIDs: [Self.transactionID(5)])
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["lookup", "MK5TTTVWJH"], baseURL: url),
                try await Self.api(["lookup", "MK5TTTVWJH", "--json"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "order MK5TTTVWJH status 0 valid")
        #expect(lines.dropFirst().map { String($0.prefix(16)) } == [Self.transactionID(5)])
        let object = try Self.json(json.stdout)
        #expect(object["status"] as? Int == 0)
        #expect(
            (object["signedTransactions"] as? [[String: Any]])?.first?["transactionId"] as? String
                == Self.transactionID(5)
        )
    }

    @Test func refundsPrintTheRefundedTransactions() async throws {
        let store = try Self.store()
        store.revoke(transactionID: Self.transactionID(3), at: Self.now, reason: 0)
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["refunds", Self.original], baseURL: url),
                try await Self.api(["refunds", Self.original, "--json"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix(Self.transactionID(3) + " ") == true)
        #expect(lines.first?.hasSuffix(" reason 0") == true)
        let object = try Self.json(json.stdout)
        let refunded = try #require(object["signedTransactions"] as? [[String: Any]])
        #expect(refunded.compactMap { $0["transactionId"] as? String } == [Self.transactionID(3)])
        #expect(refunded.first?["revocationDate"] is Int)
    }

    @Test func notificationHistoryPrintsEachNotificationWithItsAttempts() async throws {
        let store = try Self.store()
        let authority = try Self.authority.get()
        let sent = Self.now.addingTimeInterval(-3600)
        let transaction = try JWSMinter.sign(
            try #require(store.transaction(id: Self.transactionID(5))),
            signer: authority.leaf,
            chain: authority.chain
        )
        store.addNotification(
            JWSSamplePayload.notification(
                type: .didRenew,
                notificationUUID: "uuid-1",
                bundleIdentifier: Self.bundle,
                appAppleID: Self.appAppleID,
                signedDate: sent,
                signedTransactionInfo: transaction
            ),
            attempts: [
                SimulatedSendAttempt(date: sent, result: "TIMED_OUT"),
                SimulatedSendAttempt(date: sent.addingTimeInterval(60)),
            ]
        )
        let window = [
            "--start", try #require(RFC3339.string(Self.now.addingTimeInterval(-86_400))),
            "--end", try #require(RFC3339.string(Self.now)),
        ]
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["notification-history"] + window, baseURL: url),
                try await Self.api(["notification-history", "--json"] + window, baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(" DID_RENEW uuid-1 transaction \(Self.transactionID(5)) sent TIMED_OUT ") == true)
        #expect(lines.first?.contains(", SUCCESS ") == true)
        let object = try Self.json(json.stdout)
        let item = try #require((object["notificationHistory"] as? [[String: Any]])?.first)
        let payload = try #require(item["signedPayload"] as? [String: Any])
        #expect(payload["notificationType"] as? String == "DID_RENEW")
        let data = try #require(payload["data"] as? [String: Any])
        #expect((data["signedTransactionInfo"] as? [String: Any])?["transactionId"] as? String == Self.transactionID(5))
        #expect((item["sendAttempts"] as? [[String: Any]])?.count == 2)
    }

    @Test func testNotificationPrintsTheTokenAndTheStatus() async throws {
        let store = try Self.store()
        let (text, json) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(["test-notification"], baseURL: url),
                try await Self.api(["test-notification", "--json"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("token ") == true)
        #expect(lines.dropFirst().first?.contains(" TEST ") == true)
        #expect(lines.dropFirst().first?.contains(" sent SUCCESS ") == true)
        let object = try Self.json(json.stdout)
        #expect(object["testNotificationToken"] is String)
        let status = try #require(object["status"] as? [String: Any])
        #expect((status["signedPayload"] as? [String: Any])?["notificationType"] as? String == "TEST")
    }

    /// Issue 48: `api consumption` sends Apple's V2 body to V2's path, which the simulator keeps; usage errors are 64
    /// before anything is sent.
    @Test func consumptionSendsVersionTwo() async throws {
        let store = try Self.store()
        let id = Self.transactionID(5)
        let (text, json, refused, badStatus) = try await Self.withSimulator(store) { url in
            (
                try await Self.api(
                    ["consumption", id, "--customer-consented", "--delivery-status", "DELIVERED",
                     "--sample-content-provided", "false"], baseURL: url),
                try await Self.api(
                    ["consumption", id, "--customer-consented", "--delivery-status", "UNDELIVERED_OTHER",
                     "--sample-content-provided", "true", "--consumption-percentage", "40000",
                     "--refund-preference", "GRANT_PRORATED", "--json"], baseURL: url),
                try await Self.api(
                    ["consumption", id, "--delivery-status", "DELIVERED", "--sample-content-provided", "false"], baseURL: url),
                try await Self.api(
                    ["consumption", id, "--customer-consented", "--delivery-status", "LOST", "--sample-content-provided",
                     "false", "--consumption-percentage", "100001"], baseURL: url)
            )
        }
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "sent consumption information for \(id)\n")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try Self.json(json.stdout)
        #expect(object["transactionId"] as? String == id)
        #expect((object["request"] as? [String: Any])?["refundPreference"] as? String == "GRANT_PRORATED")
        let kept = try #require(store.consumptionInformation(transactionID: id))
        #expect(kept["deliveryStatus"] == .string("UNDELIVERED_OTHER"))
        #expect(kept["consumptionPercentage"] == .number(JSONNumber(40_000)))
        #expect(kept["sampleContentProvided"] == .bool(true))
        #expect(store.requestCount(.consumption) == 2)
        #expect(store.requestCount(.consumptionV1) == 0)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--customer-consented is required"))
        #expect(badStatus.status == 64)
        #expect(badStatus.stderr.contains("--delivery-status takes DELIVERED, UNDELIVERED_QUALITY_ISSUE"))
    }

    /// On a terminal, `history` redraws `page N, M transactions` on stderr as pages arrive, and clears the line before
    /// the list. Run under util-linux `script`, which gives the child a pseudo-terminal; skipped where there is none.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func historyShowsProgressOnATerminal() async throws {
        let store = try Self.store()
        store.pageSize = 2
        let output = try await Self.withSimulator(store) { url in
            let command =
                ([CLIRunner.executable.path, "api", "history", Self.original] + (try Self.common(baseURL: url)))
                .map { "'\($0)'" }.joined(separator: " ")
            return try await CLIRunner.run(
                ["-qec", command, "/dev/null"],
                executable: URL(fileURLWithPath: "/usr/bin/script")
            )
        }
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("\rpage 1, 2 transactions"))
        #expect(output.stdout.contains("\rpage 3, 5 transactions"))
        #expect(output.stdout.contains("Production \(Self.bundle) app \(Self.appAppleID): 5 transactions"))
    }

    @Test func signedDataFromAnotherEnvironmentIsNotTrustedExit1() async throws {
        let output = try await Self.withSimulator(try Self.store()) { url in
            try await Self.api(["transaction", Self.transactionID(1), "--environment", "sandbox"], baseURL: url)
        }
        #expect(output.status == 1)
        #expect(output.stderr.contains(": untrusted_signed_data: "))
        #expect(output.stderr.contains("environment_mismatch"))
    }

    // MARK: Exit statuses

    @Test func signedDataFromAnotherAuthorityIsNotTrustedExit1() async throws {
        let output = try await Self.withSimulator(try Self.store(), signer: try JWSTestAuthority()) { url in
            try await Self.api(["history", Self.original], baseURL: url)
        }
        #expect(output.status == 1)
        #expect(output.stdout == "")
        #expect(output.stderr.hasPrefix("receiptkit: api history \(Self.original): untrusted_signed_data: "))
        #expect(output.stderr.contains("certificate_untrusted"))
    }

    @Test func anAppleErrorExits65WithItsCodeAndMessage() async throws {
        let (text, json) = try await Self.withSimulator(try Self.store()) { url in
            (
                try await Self.api(["history", "9999999999999999"], baseURL: url),
                try await Self.api(["transaction", "9999999999999999", "--json"], baseURL: url)
            )
        }
        #expect(text.status == 65)
        #expect(text.stdout == "")
        #expect(text.stderr.contains("api_error"))
        #expect(text.stderr.contains("4040010"))
        #expect(text.stderr.contains("Transaction id not found."))
        #expect(json.status == 65)
        let error = try #require(try Self.json(json.stdout)["error"] as? [String: Any])
        #expect(error["code"] as? String == "api_error")
        #expect(error["errorCode"] as? Int == 4_040_010)
        #expect(error["errorMessage"] as? String == "Transaction id not found.")
        #expect(error["httpStatus"] as? Int == 404)
    }

    @Test func aRefusedKeyExits77() async throws {
        let store = try Self.store()
        let unknownKey = Self.directory.appendingPathComponent("unknown.p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: unknownKey)
        let (unauthorized, forbidden) = try await Self.withSimulator(store) { url in
            let unauthorized = try await Self.api(["history", Self.original], baseURL: url, key: unknownKey.path)
            store.inject(.appleError(SimulatedAPIError(status: 403, errorCode: 4_030_000, errorMessage: "Forbidden.")))
            return (unauthorized, try await Self.api(["history", Self.original], baseURL: url))
        }
        #expect(unauthorized.status == 77)
        #expect(unauthorized.stderr.contains(": unauthorized: "))
        #expect(forbidden.status == 77)
        #expect(forbidden.stderr.contains(": forbidden: "))
    }

    @Test func stillRateLimitedAfterTheRetriesExits75() async throws {
        let store = try Self.store()
        store.inject(.rateLimited(retryAfterSeconds: 1), times: nil)
        let started = ContinuousClock.now
        let output = try await Self.withSimulator(store) { url in
            try await Self.api(["history", Self.original], baseURL: url)
        }
        #expect(output.status == 75)
        #expect(output.stderr.contains(": rate_limited: "))
        #expect(store.requestCount(.transactionHistory) == 3)
        // Three attempts with 1 s waits, not a Retry-After loop without end (a wide bound: a busy machine is slow).
        #expect(ContinuousClock.now - started < .seconds(120))
    }

    @Test func serverErrorsAfterTheRetriesExit69() async throws {
        let store = try Self.store()
        store.inject(.serverError(status: 503), times: nil)
        let output = try await Self.withSimulator(store) { url in
            try await Self.api(["history", Self.original], baseURL: url)
        }
        #expect(output.status == 69)
        #expect(output.stderr.contains(": server_error: "))
        #expect(store.requestCount(.transactionHistory) == 3)
    }

    @Test func anUnreachableServerExits69() async throws {
        let store = try Self.store()
        store.isDown = true
        let output = try await Self.withSimulator(store) { url in
            try await Self.api(["history", Self.original], baseURL: url)
        }
        #expect(output.status == 69)
        #expect(output.stderr.contains(": unreachable: "))
    }

    @Test(arguments: [
        (["history"], "Missing expected argument '<transaction-id>'"),
        (["history", "1", "--sort", "sideways"], "--sort takes ascending or descending, not 'sideways'"),
        (["notification-history", "--start", "yesterday", "--end", "2026-01-01T00:00:00Z"],
         "--start takes an RFC 3339 time, not 'yesterday'"),
        (["notification-history", "--start", "2026-01-02T00:00:00Z", "--end", "2026-01-01T00:00:00Z"],
         "--end must be after --start"),
        (["history", "1", "--environment", "xcode"], "--environment takes production or sandbox, not 'xcode'"),
    ])
    func badOptionsExit64(arguments: [String], message: String) async throws {
        let output = try await Self.api(arguments, baseURL: "http://127.0.0.1:9")
        #expect(output.status == 64)
        #expect(output.stderr.contains(message))
        #expect(output.stdout == "")
    }

    @Test func aBaseURLThatIsNotHTTPSOrLoopbackExits64() async throws {
        let output = try await Self.api(["history", "1"], baseURL: "http://api.example.com")
        #expect(output.status == 64)
        #expect(output.stderr.contains("invalid_configuration"))
    }

    @Test func aMissingKeyFileExits66AndAnInvalidOneExits65() async throws {
        let missing = try await Self.api(
            ["history", "1"],
            baseURL: "http://127.0.0.1:9",
            key: "/nonexistent/AuthKey.p8"
        )
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("receiptkit: --private-key /nonexistent/AuthKey.p8: unreadable_file: "))
        let invalid = Self.directory.appendingPathComponent("invalid.p8")
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: invalid)
        let output = try await Self.api(["history", "1"], baseURL: "http://127.0.0.1:9", key: invalid.path)
        #expect(output.status == 65)
        #expect(output.stderr.contains("invalid_private_key"))
    }

    @Test func withJSONAnUnreadableKeyOrAnchorIsAJSONErrorToo() async throws {
        for arguments in [
            ["history", "1", "--json"],
            ["history", "1", "--json", "--anchor", "/nonexistent/root.cer"],
        ] {
            let missingKey = arguments.count == 3
            let output = try await Self.api(
                arguments, baseURL: "http://127.0.0.1:9", key: missingKey ? "/nonexistent/AuthKey.p8" : nil)
            #expect(output.status == 66)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["code"] as? String == "unreadable_file")
            #expect(output.stderr.hasPrefix(
                missingKey ? "receiptkit: --private-key /nonexistent/AuthKey.p8: " : "receiptkit: --anchor /nonexistent/root.cer: "))
        }
    }

    @Test func thePrivateKeyIsNeverPrinted() async throws {
        let store = try Self.store()
        let otherKey = Self.directory.appendingPathComponent("other.p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: otherKey)
        let outputs = try await Self.withSimulator(store) { url in
            [
                try await Self.api(["history", Self.original], baseURL: url),
                try await Self.api(["history", Self.original, "--json"], baseURL: url),
                try await Self.api(["transaction", "9999999999999999", "--json"], baseURL: url),
                try await Self.api(["history", Self.original], baseURL: url, key: otherKey.path),
                try await Self.api(["history", Self.original], baseURL: "http://api.example.com"),
                try await Self.api(["history", "--bad-flag"], baseURL: url),
            ]
        }
        let body = Self.key.pemRepresentation.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let chunks = stride(from: 0, to: body.count - 15, by: 4).map { offset in
            String(body.dropFirst(offset).prefix(16))
        }
        #expect(!chunks.isEmpty)
        for output in outputs {
            let seen = output.stdout + output.stderr
            #expect(!seen.contains("PRIVATE KEY"))
            #expect(!chunks.contains { seen.contains($0) })
        }
        #expect(outputs.first?.status == 0)
    }
}
