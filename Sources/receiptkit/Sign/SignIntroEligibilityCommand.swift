import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit sign intro-eligibility`: an introductory offer's eligibility (`aud` `introductory-offer-eligibility`).
struct SignIntroEligibilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intro-eligibility",
        abstract: "Sign whether a customer may have a product's introductory offer: the JWS StoreKit's purchase carries.",
        discussion: """
            Claims iss, bid, aud introductory-offer-eligibility, iat, nonce, productId, allowIntroductoryOffer and \
            transactionId. --json prints {"bundleId","keyId","issuerId","productId","allowIntroductoryOffer", \
            "transactionId","signature"}.
            """
    )

    @OptionGroup var key: SignKeyOptions
    @OptionGroup var jws: SignJWSOptions

    @Option(name: .customLong("product-id"), help: "The subscription's product id.")
    var productIdentifier: String

    @Option(name: .customLong("allow-intro-offer"), help: ArgumentHelp("true or false.", valueName: "bool"))
    var allowIntroOffer: String

    @Option(name: .customLong("transaction-id"), help: "A transaction id of the customer.")
    var transactionIdentifier: String

    func validate() throws {
        if self.productIdentifier.isEmpty { throw ValidationError("--product-id must not be empty") }
        if self.transactionIdentifier.isEmpty { throw ValidationError("--transaction-id must not be empty") }
        guard ["true", "false"].contains(self.allowIntroOffer) else {
            throw ValidationError("--allow-intro-offer takes true or false, not '\(self.allowIntroOffer)'")
        }
    }

    func run() throws {
        let allows = self.allowIntroOffer == "true"
        let signature = try self.jws.sign("sign intro-eligibility", key: self.key) {
            signer, nonce, now throws(AppStoreServerAPIError) in
            try signer.introductoryOfferEligibility(
                productIdentifier: self.productIdentifier, allowsIntroductoryOffer: allows,
                transactionIdentifier: self.transactionIdentifier, nonce: nonce, now: now)
        }
        self.key.print(signature, inputs: [
            "issuerId": .string(self.jws.issuerID), "productId": .string(self.productIdentifier),
            "allowIntroductoryOffer": .bool(allows), "transactionId": .string(self.transactionIdentifier),
        ])
    }
}
