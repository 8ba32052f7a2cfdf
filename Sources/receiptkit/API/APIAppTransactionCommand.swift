import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api app-transaction <transaction-id>`: Get App Transaction Info.
struct APIAppTransactionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-transaction",
        abstract: "Get App Transaction Info: the customer's AppTransaction for the app, verified.",
        discussion: """
            Prints the app transaction's line; --json prints {"signedAppTransactionInfo":{…}} with the verified \
            payload. A customer without one is Apple's error 4040019 (exit 65, as any Apple error). Exit \
            status as `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "Any transaction id, original transaction id or app transaction id of the customer.")
    var transactionID: String

    func validate() throws {
        if self.transactionID.isEmpty { throw ValidationError("the transaction id must not be empty") }
    }

    func run() async throws {
        let id = self.transactionID
        let appTransaction = try await self.options.call("api app-transaction \(id)") {
            client throws(AppStoreServerAPIError) in
            try await client.appTransactionInfo(transactionID: id)
        }
        if self.options.json {
            print(JSONOutput.line(JSONValue.object(["signedAppTransactionInfo": .object(appTransaction.fields)])))
        } else {
            print(APIText.appTransaction(appTransaction))
        }
    }
}
