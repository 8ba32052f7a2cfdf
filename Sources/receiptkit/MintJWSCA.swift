import ArgumentParser
import Foundation
import ReceiptKitTesting

struct MintJWSCA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws-ca",
        abstract: "Create a P-256 test PKI shaped like Apple's JWS signing (root → WWDR-marked intermediate → App Store signing leaf)."
    )

    @OptionGroup var output: AuthorityOutput

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
        try self.output.save(try JWSTestAuthority(leafOCSPURI: self.ocspURI), anchorFor: " for `receiptkit jws verify --anchor`")
    }
}
