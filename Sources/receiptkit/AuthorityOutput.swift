import ArgumentParser
import Foundation
import ReceiptKitTesting

/// Where `mint ca` and `mint jws-ca` write a fresh test authority.
struct AuthorityOutput: ParsableArguments {
    @Option(help: "The folder to write root/intermediate/leaf .cer, .pem and .key.pem into.")
    var out: String

    /// Saves `authority` and says what was written; `anchorFor` names the command that takes `root.cer`.
    func save(_ authority: some TestAuthorityHierarchy, anchorFor use: String) throws {
        try exitingOnMintingErrors { () throws(MintingError) in try authority.save(to: URL(fileURLWithPath: self.out)) }
        print("wrote \(self.out)/root.cer (the anchor\(use)), intermediate, leaf and their keys")
    }
}
