import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser
import Foundation

/// `receiptkit sign promotional-offer`: a promotional offer's signature, version 1 (base64 DER).
struct SignPromotionalOfferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer",
        abstract: "Sign a promotional offer (version 1): the base64 DER signature StoreKit's offer carries.",
        discussion: """
            Signs bundle id, key id, product id, offer id, app account token and nonce (both lower-cased) and the \
            timestamp, joined by U+2063, with ECDSA P-256 / SHA-256, as Apple documents; give StoreKit the same key \
            id, nonce and timestamp. --json prints {"bundleId","keyId","productId","offerId","appAccountToken", \
            "nonce","timestamp","signature"}.
            """
    )

    @OptionGroup var key: SignKeyOptions

    @Option(name: .customLong("product-id"), help: "The subscription's product id.")
    var productIdentifier: String

    @Option(name: .customLong("offer-id"), help: "The promotional offer's id (App Store Connect).")
    var offerIdentifier: String

    @Option(name: .customLong("app-account-token"), help: "The app account token the purchase will carry (a UUID), or none.")
    var appAccountToken = ""

    @Option(help: ArgumentHelp("A fresh UUID for this purchase; StoreKit sends the same.", valueName: "uuid"))
    var nonce: String

    @Option(help: ArgumentHelp("Milliseconds since 1970 (Apple accepts the signature for 24 hours).", valueName: "ms"))
    var timestamp: Int64

    func validate() throws {
        if self.productIdentifier.isEmpty { throw ValidationError("--product-id must not be empty") }
        if self.offerIdentifier.isEmpty { throw ValidationError("--offer-id must not be empty") }
        guard UUID(uuidString: self.nonce) != nil else { throw ValidationError("--nonce must be a UUID, not '\(self.nonce)'") }
        guard self.timestamp >= 0 else { throw ValidationError("--timestamp must be milliseconds since 1970") }
    }

    func run() throws {
        let text = try self.key.keyText()
        let nonce = UUID(uuidString: self.nonce) ?? UUID()
        let signature = try self.key.signing("sign promotional-offer") { () throws(AppStoreServerAPIError) in
            try PromotionalOfferSigner(keyID: self.key.keyID, pemRepresentation: text, bundleIdentifier: self.key.bundleIdentifier)
                .signature(
                    productIdentifier: self.productIdentifier, offerIdentifier: self.offerIdentifier,
                    appAccountToken: self.appAccountToken, nonce: nonce, timestamp: self.timestamp)
        }
        self.key.print(signature, inputs: [
            "productId": .string(self.productIdentifier), "offerId": .string(self.offerIdentifier),
            "appAccountToken": .string(self.appAccountToken.lowercased()), "nonce": .string(nonce.uuidString.lowercased()),
            "timestamp": .number(JSONNumber(self.timestamp)),
        ])
    }
}
