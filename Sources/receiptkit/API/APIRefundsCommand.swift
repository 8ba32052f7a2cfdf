import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api refunds <transaction-id>`: Get Refund History v2.
struct APIRefundsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refunds",
        abstract: "Get Refund History v2: the customer's refunded and revoked transactions, every page, each verified.",
        discussion: """
            Prints one line per refunded transaction (with `revoked <RFC 3339> reason <n>`). --json prints \
            {"signedTransactions":[…],"hasMore":false,…} with each transaction's verified payload. Exit status as \
            `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "Any transaction id of the customer.")
    var transactionID: String

    func validate() throws {
        if self.transactionID.isEmpty { throw ValidationError("the transaction id must not be empty") }
    }

    func run() async throws {
        let id = self.transactionID
        let refunds = try await self.options.call("api refunds \(id)") { client throws(AppStoreServerAPIError) in
            try await client.refundHistory(transactionID: id)
        }
        if self.options.json {
            print(JSONOutput.line(refunds))
            return
        }
        for transaction in refunds.transactions { print(APIText.transaction(transaction)) }
    }
}
