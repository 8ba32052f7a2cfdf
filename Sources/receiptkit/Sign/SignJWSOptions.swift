import AppStoreServerAPI
import ArgumentParser
import Foundation

/// What the JWS forms of `receiptkit sign` take besides the key: the issuer id and, for reproducible output, a nonce.
struct SignJWSOptions: ParsableArguments {
    @Option(name: .customLong("issuer-id"), help: "The issuer id of the In-App Purchase key.")
    var issuerID: String

    @Option(help: ArgumentHelp("The JWS's nonce; a fresh UUID by default.", valueName: "uuid"))
    var nonce: String?

    func validate() throws {
        if self.issuerID.isEmpty { throw ValidationError("--issuer-id must not be empty") }
        if let nonce, UUID(uuidString: nonce) == nil { throw ValidationError("--nonce must be a UUID, not '\(nonce)'") }
    }

    /// Signs with `signer` made of `key`'s file and this issuer: the nonce given or a fresh one, the clock's time.
    func sign(
        _ subject: String, key: SignKeyOptions,
        _ body: (StoreKitRequestSigner, UUID, Date) throws(AppStoreServerAPIError) -> String
    ) throws -> String {
        let text = try key.keyText()
        let nonce = self.nonce.flatMap(UUID.init(uuidString:)) ?? UUID()
        let now = Date()
        return try key.signing(subject) { () throws(AppStoreServerAPIError) in
            let signer = try StoreKitRequestSigner(
                key: AppStoreServerAPIKey(issuerID: self.issuerID, keyID: key.keyID, pemRepresentation: text),
                bundleIdentifier: key.bundleIdentifier)
            return try body(signer, nonce, now)
        }
    }
}
