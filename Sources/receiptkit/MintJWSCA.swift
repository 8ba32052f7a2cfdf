import ArgumentParser
import Foundation
import ReceiptKitTesting

struct MintJWSCA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws-ca",
        abstract: "Create a P-256 test PKI shaped like Apple's JWS signing (root → WWDR-marked intermediate → App Store signing leaf)."
    )

    @Option(help: "The folder to write root/intermediate/leaf .cer, .pem and .key.pem into.")
    var out: String

    @Option(
        name: .customLong("ocsp-uri"),
        help: "An OCSP responder URL for the leaf to name (as Apple's leaves do), for testing `jws verify --check-revocation`."
    )
    var ocspURI: String?

    func validate() throws {
        if let uri = self.ocspURI, !(uri.hasPrefix("http://") || uri.hasPrefix("https://")) {
            throw ValidationError("--ocsp-uri takes an http:// or https:// URL, not '\(uri)'")
        }
    }

    func run() throws {
        let authority = try JWSTestAuthority(leafOCSPURI: self.ocspURI)
        try exitingOnMintingErrors { () throws(MintingError) in try authority.save(to: URL(fileURLWithPath: self.out)) }
        print("wrote \(self.out)/root.cer (the anchor for `receiptkit jws verify --anchor`), intermediate, leaf and their keys")
    }
}
