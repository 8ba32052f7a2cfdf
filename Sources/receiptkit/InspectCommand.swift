import ArgumentParser
import Foundation
import ReceiptKit

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a receipt without checking its signature or trust.",
        discussion: "Prints a readable summary, or with --json Apple's verifyReceipt `receipt` object."
    )

    @Flag(help: "Print the verifyReceipt-shaped JSON object.")
    var json = false

    @Flag(help: "The input is base64 text (detected automatically when it does not start with a DER SEQUENCE).")
    var base64 = false

    @Argument(help: "The receipt file, or - for standard input.")
    var input: String

    func run() throws {
        let receipt: AppReceipt
        let contents: [UInt8]
        do { contents = try ReceiptFile.contents(atPath: self.input) } catch { throw InputFailure(error).reported(subject: self.input) }
        do {
            receipt = try AppReceipt(berEncoded: ReceiptInput.normalized(contents, base64: self.base64 ? true : nil))
        } catch {
            throw InputFailure(error).reported(subject: self.input)
        }
        if self.json {
            print(String(decoding: receipt.verifyReceiptJSON(), as: UTF8.self))
        } else {
            print(ReceiptSummary.render(receipt), terminator: "")
        }
    }
}
