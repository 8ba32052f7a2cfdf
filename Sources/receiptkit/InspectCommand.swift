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
        do {
            let bytes = try ReceiptInput.normalized(ReceiptFile.contents(atPath: self.input), base64: self.base64 ? true : nil)
            receipt = try AppReceipt(berEncoded: bytes)
        } catch {
            StandardError.write("receiptkit: \(self.input): \(error.code): \(error.reason)\n")
            throw ExitStatus(error).exitCode
        }
        if self.json {
            print(String(decoding: receipt.verifyReceiptJSON(), as: UTF8.self))
        } else {
            print(ReceiptSummary.render(receipt), terminator: "")
        }
    }
}
