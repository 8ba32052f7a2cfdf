import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit sign promotional-offer-v2`: a promotional offer's JWS (`aud` `promotional-offer`).
struct SignPromotionalOfferV2Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotional-offer-v2",
        abstract: "Sign a promotional offer (version 2): the compact JWS StoreKit's offer carries.",
        discussion: """
            Claims iss, bid, aud promotional-offer, iat, nonce, productId, offerIdentifier and, when given, \
            transactionId. --json prints {"bundleId","keyId","issuerId","productId","offerIdentifier", \
            "transactionId","signature"}.
            """
    )

    @OptionGroup var key: SignKeyOptions
    @OptionGroup var jws: SignJWSOptions

    @Option(name: .customLong("product-id"), help: "The subscription's product id.")
    var productIdentifier: String

    @Option(name: .customLong("offer-id"), help: "The promotional offer's id.")
    var offerIdentifier: String

    @Option(name: .customLong("transaction-id"), help: "A transaction id of the customer's subscription.")
    var transactionIdentifier: String?

    func validate() throws {
        if self.productIdentifier.isEmpty { throw ValidationError("--product-id must not be empty") }
        if self.offerIdentifier.isEmpty { throw ValidationError("--offer-id must not be empty") }
        if self.transactionIdentifier?.isEmpty == true { throw ValidationError("--transaction-id must not be empty") }
    }

    func run() throws {
        let signature = try self.jws.sign("sign promotional-offer-v2", key: self.key) {
            signer, nonce, now throws(AppStoreServerAPIError) in
            try signer.promotionalOffer(
                productIdentifier: self.productIdentifier, offerIdentifier: self.offerIdentifier,
                transactionIdentifier: self.transactionIdentifier, nonce: nonce, now: now)
        }
        var inputs: [String: JSONValue] = [
            "issuerId": .string(self.jws.issuerID), "productId": .string(self.productIdentifier),
            "offerIdentifier": .string(self.offerIdentifier),
        ]
        if let id = self.transactionIdentifier { inputs["transactionId"] = .string(id) }
        self.key.print(signature, inputs: inputs)
    }
}
