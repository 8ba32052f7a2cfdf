import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api transaction <transaction-id>`: Get Transaction Info.
struct APITransactionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transaction",
        abstract: "Get Transaction Info: one transaction, verified.",
        discussion: """
            Prints the transaction's line; --json prints {"signedTransactionInfo":{…}} with the verified payload. \
            Exit status as `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "The transaction id.")
    var transactionID: String

    func validate() throws {
        if self.transactionID.isEmpty { throw ValidationError("the transaction id must not be empty") }
    }

    func run() async throws {
        let id = self.transactionID
        let transaction = try await self.options.call("api transaction \(id)") {
            client throws(AppStoreServerAPIError) in
            try await client.transactionInfo(transactionID: id)
        }
        if self.options.json {
            print(JSONOutput.line(JSONValue.object(["signedTransactionInfo": .object(transaction.fields)])))
        } else {
            print(APIText.transaction(transaction))
        }
    }
}
