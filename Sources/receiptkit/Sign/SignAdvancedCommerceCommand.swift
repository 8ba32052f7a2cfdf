import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser
import ReceiptKit

/// `receiptkit sign advanced-commerce`: an Advanced Commerce API in-app request (`aud` `advanced-commerce-api`).
struct SignAdvancedCommerceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advanced-commerce",
        abstract: "Sign an Advanced Commerce API in-app request: the JWS StoreKit's purchase carries.",
        discussion: """
            --request names the request's JSON object (as Apple documents each operation); it is carried base64, \
            byte for byte, in the request claim. --json prints {"bundleId","keyId","issuerId","request", \
            "signature"} (request: the file's JSON).
            """
    )

    @OptionGroup var key: SignKeyOptions
    @OptionGroup var jws: SignJWSOptions

    @Option(help: ArgumentHelp("The request's JSON file (at most 64 KiB).", valueName: "file.json"))
    var request: String

    func run() throws {
        let read: [UInt8]?
        do {
            read = try ReceiptFile.regularFileContents(
                atPath: self.request, maximumSize: StoreKitRequestSigner.maximumRequestSize)
        } catch {
            throw InputFailure(error).reported(subject: "--request \(self.request)", json: self.key.json)
        }
        guard let body = read else {
            throw InputFailure(ReceiptFileError(.unreadableFile, "not a regular file"))
                .reported(subject: "--request \(self.request)", json: self.key.json)
        }
        guard case .object(let members)? = try? JSONValue(jsonEncoded: body) else {
            StandardError.write("receiptkit: --request \(self.request): not a JSON object\n")
            throw ExitStatus.malformed.exitCode
        }
        let signature = try self.jws.sign("sign advanced-commerce", key: self.key) {
            signer, nonce, now throws(AppStoreServerAPIError) in
            try signer.advancedCommerceInAppRequest(body, nonce: nonce, now: now)
        }
        self.key.print(signature, inputs: ["issuerId": .string(self.jws.issuerID), "request": .object(members)])
    }
}
