import AppStoreJWS
import ArgumentParser
import Crypto
import Foundation
import ReceiptKit
import AppStoreServerAPISimulator
import ReceiptKitTesting
import X509

/// An App Store Server API simulator as a process, for the load scripts: it knows the transactions of one receipt,
/// signs with a fresh test authority, and answers on 127.0.0.1 until it is killed.
///
/// It writes into `--output`: `AuthKey.p8` (the In-App Purchase key it accepts), its test authority (`root.cer`, the
/// anchor its signed data chains to, with the other certificates and keys) and, once it listens, `simulator.json` (`base_url`, `issuer_id`, `key_id`, `bundle_id`) —
/// everything a `receiptkit serve --config` entry under `app_store_server_api` needs.
@main
struct APISimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-simulator",
        abstract: "Serve one receipt's transactions as the App Store Server API, on 127.0.0.1, until killed."
    )

    @Option(help: "The receipt whose in-app purchases the simulator knows (DER or BER PKCS#7).")
    var receipt: String

    @Option(help: "The folder AuthKey.p8, root.cer and simulator.json are written to.")
    var output: String

    func run() async throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: self.receipt)))
        let receipt = try AppReceipt(berEncoded: bytes)
        guard let bundleIdentifier = receipt.bundleIdentifier else {
            throw ValidationError("the receipt has no bundle id")
        }
        let environment = receipt.environment?.appStoreEnvironment ?? .production
        let now = Date()
        let store = SimulatedAppStore()
        let key = P256.Signing.PrivateKey()
        let keyID = "SIMKEY0001"
        let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        store.register(SimulatedAPIKey(keyID: keyID, issuerID: issuerID, publicKey: key.publicKey))
        store.addApp(bundleIdentifier: bundleIdentifier, appAppleID: receipt.appItemIdentifier ?? 1)
        for purchase in receipt.inAppPurchases {
            guard let id = purchase.transactionIdentifier, let product = purchase.productIdentifier else { continue }
            let purchased = purchase.purchaseDate ?? now
            var fields = JWSSamplePayload.transaction(
                bundleIdentifier: bundleIdentifier, productID: product, transactionID: id,
                originalTransactionID: purchase.originalTransactionIdentifier,
                type: purchase.expiresDate == nil ? .nonConsumable : .autoRenewableSubscription,
                environment: environment, purchaseDate: purchased, signedDate: now)
            if let expires = purchase.expiresDate {
                fields["expiresDate"] = .number(AppStoreTimestamp(expires).number)
                try store.setRenewalInfo(
                    JWSSamplePayload.renewalInfo(
                        productID: product, originalTransactionID: purchase.originalTransactionIdentifier ?? id,
                        environment: environment, signedDate: now))
            }
            try store.add(transaction: fields)
        }

        let folder = URL(fileURLWithPath: self.output)
        try Data(key.pemRepresentation.utf8).write(to: folder.appendingPathComponent("AuthKey.p8"))
        let authority = try JWSTestAuthority()
        try authority.save(to: folder)

        let simulator = AppStoreServerSimulator(
            store: store, authority: authority, environment: environment, now: { Date() })
        try await simulator.run { baseURL in
            let description: [String: String] = [
                "base_url": baseURL, "issuer_id": issuerID, "key_id": keyID, "bundle_id": bundleIdentifier,
            ]
            try JSONSerialization.data(withJSONObject: description, options: [.sortedKeys])
                .write(to: folder.appendingPathComponent("simulator.json"), options: .atomic)
            print("api-simulator: \(receipt.inAppPurchases.count) transactions of \(bundleIdentifier) at \(baseURL)")
            while true { try await Task.sleep(for: .seconds(3_600)) }
        }
    }
}
