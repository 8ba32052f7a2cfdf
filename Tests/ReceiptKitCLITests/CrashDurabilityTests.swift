import AppStoreJWS
import Crypto
import Foundation
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import SwiftASN1
import Testing
import X509
#if canImport(Glibc)
import Glibc
#endif

/// Acknowledged means durable: `receiptkit serve` killed with SIGKILL while clients post receipts and
/// notifications keeps every write it acknowledged, and the SQLite file stays sound.
@Suite("receiptkit serve: crash durability", .serialized)
struct CrashDurabilityTests {
    static let bundle = "com.example.app"

    /// What the clients were told was recorded.
    actor Acknowledged {
        var receipts: [[UInt8]] = []
        var notifications: [Data] = []
        func receipt(_ bytes: [UInt8]) { self.receipts.append(bytes) }
        func notification(_ body: Data) { self.notifications.append(body) }
        var count: Int { self.receipts.count + self.notifications.count }
    }

    /// The group commit's counters just before the kill.
    actor Batches {
        var transactions: Double = 0
        var writes: Double = 0
        func set(transactions: Double, writes: Double) {
            self.transactions = transactions
            self.writes = writes
        }
    }

    /// A receipt of one purchase whose transaction id is unique to `client` and `index`.
    static func receipt(ca: TestCertificateAuthority, client: Int, index: Int, bundle: String = Self.bundle) throws -> [UInt8] {
        let id = String(3_000_000_000_000_000 + client * 100_000 + index)
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let purchase = InAppPurchase(
            quantity: 1, productIdentifier: "com.example.pro", transactionIdentifier: id, purchaseDate: day,
            originalTransactionIdentifier: id, originalPurchaseDate: day, productType: 1)
        let receipt = AppReceipt(
            environment: .production, appItemIdentifier: 1, bundleIdentifier: bundle, appVersion: "1",
            opaqueValue: [1, 2, 3, 4], creationDate: day.addingTimeInterval(60), originalAppVersion: "1",
            inAppPurchases: [purchase])
        return try ReceiptMinter.mint(receipt, signer: ca.receiptSigner)
    }

    static func notification(authority: JWSTestAuthority, client: Int, index: Int, now: Date) throws -> Data {
        let id = String(4_000_000_000_000_000 + client * 100_000 + index)
        let transaction = try JWSMinter.sign(
            JWSSamplePayload.transaction(
                bundleIdentifier: Self.bundle, productID: "com.example.monthly", transactionID: id, originalTransactionID: id,
                purchaseDate: now.addingTimeInterval(-60), signedDate: now),
            signer: authority.leaf, chain: authority.chain)
        let payload = JWSSamplePayload.notification(
            type: .subscribed, notificationUUID: UUID().uuidString.lowercased(), bundleIdentifier: Self.bundle,
            signedDate: now, signedTransactionInfo: transaction)
        let jws = try JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain)
        return Data(JSONValue.object(["signedPayload": .string(jws)]).serialized)
    }

    static func writeDER(_ certificate: Certificate, to url: URL) throws {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        try Data(serializer.serializedBytes).write(to: url)
    }

    @Test("SIGKILL while 32 clients post, their writes sharing commits: every acknowledged receipt and notification is there after a restart")
    func acknowledgedWritesSurviveSIGKILL() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-crash-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = try TestCertificateAuthority()
        let authority = try JWSTestAuthority()
        let receiptRoot = directory.appendingPathComponent("receipt-root.cer")
        let jwsRoot = directory.appendingPathComponent("jws-root.cer")
        try Self.writeDER(ca.root.certificate, to: receiptRoot)
        try Self.writeDER(authority.root.certificate, to: jwsRoot)
        let path = directory.appendingPathComponent("ledger.sqlite").path
        let arguments = ["--database", "sqlite:" + path, "--anchor", receiptRoot.path, "--anchor", jwsRoot.path]

        let server = try ServeCLITests.Server(arguments)
        let acknowledged = Acknowledged()
        let batches = Batches()
        let now = Date()  // the server's clock is the real one: notifications are signed now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<32 {
                group.addTask {
                    for index in 0..<10_000 {
                        do {
                            if index % 2 == 0 {
                                let bytes = try Self.receipt(ca: ca, client: client, index: index)
                                let body = try JSONSerialization.data(
                                    withJSONObject: ["receipt-data": Data(bytes).base64EncodedString()])
                                let answer = try await server.post("/verifyReceipt", json: body)
                                guard answer["status"] as? Int == 0 else { return }
                                await acknowledged.receipt(bytes)
                            } else {
                                let body = try Self.notification(authority: authority, client: client, index: index, now: now)
                                let answer = try await server.post("/notifications/v2", json: body)
                                guard answer["status"] as? String == "recorded" else { return }
                                await acknowledged.notification(body)
                            }
                        } catch {
                            return  // the server is gone
                        }
                    }
                }
            }
            group.addTask {
                // Kill once a good number of writes were acknowledged (or after 20 s on a very slow machine).
                let deadline = Date().addingTimeInterval(20)
                while await acknowledged.count < 120, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                // Group commit at work: transactions carried several writes each.
                // (Read without throwing: the kill below must happen whatever.)
                let transactions = (try? await server.metric("receiptkit_ledger_write_transactions_total")) ?? 0
                let writes = (try? await server.metric("receiptkit_ledger_batched_writes_total")) ?? 0
                await batches.set(transactions: transactions, writes: writes)
                kill(server.process.processIdentifier, SIGKILL)
            }
            try await group.waitForAll()
        }
        server.waitForExit()
        #expect(server.process.terminationReason == .uncaughtSignal)
        let receipts = await acknowledged.receipts
        let notifications = await acknowledged.notifications
        #expect(receipts.count + notifications.count >= 20)
        let (transactions, writes) = await (batches.transactions, batches.writes)
        #expect(transactions > 0)
        #expect(writes > transactions, "\(writes) writes in \(transactions) transactions: none shared its commit")

        // Restarted on the same file: every acknowledged notification is a duplicate now.
        let restarted = try ServeCLITests.Server(arguments)
        for body in notifications {
            let answer = try await restarted.post("/notifications/v2", json: body)
            #expect(answer["status"] as? String == "duplicate")
        }
        #expect(restarted.stop() == 0)

        // Every acknowledged receipt is in the ledger, and the file is sound.
        let ledger = try await SQLiteLedger(path: path)
        for bytes in receipts {
            let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            #expect(try await ledger.receipt(hash: hash) == bytes)
        }
        #expect(try await ledger.integrityCheck() == ["ok"])
        await ledger.shutdown()
    }
}
