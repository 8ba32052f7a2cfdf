import ArgumentParser

/// `receiptkit sign`: the signatures an app's server makes for StoreKit with its In-App Purchase key.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign promotional offers, introductory offer eligibility and Advanced Commerce requests for StoreKit.",
        discussion: """
            Each subcommand signs with the In-App Purchase key's .p8 file (--private-key) and prints the signature as \
            one line on stdout: base64 DER for promotional-offer (version 1), the compact JWS otherwise; --json \
            prints every input and the signature. The key is never printed. The JWS forms take the time from the \
            clock and a fresh nonce unless --nonce is given. Exit status: 0 signed; 64 usage; 65 the .p8 is not a \
            PEM PKCS#8 P-256 key, or the Advanced Commerce request is not a JSON object; 66 a file cannot be read.
            """,
        subcommands: [
            SignPromotionalOfferCommand.self, SignPromotionalOfferV2Command.self, SignIntroEligibilityCommand.self,
            SignAdvancedCommerceCommand.self,
        ]
    )
}
