import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api lookup <order-id>`: Look Up Order ID.
struct APILookupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Look Up Order ID: the transactions of an order id from a customer's App Store receipt email.",
        discussion: """
            Prints `order <id> status 0 valid` (or `1 invalid`), then one line per transaction. --json prints \
            Apple's answer with each signed transaction replaced by its verified payload. Exit status as \
            `receiptkit api` (an invalid order id is an answer: exit 0).
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "The order id (from the customer's email receipt).")
    var orderID: String

    func validate() throws {
        if self.orderID.isEmpty { throw ValidationError("the order id must not be empty") }
    }

    func run() async throws {
        let id = self.orderID
        let response = try await self.options.call("api lookup \(id)") { client throws(AppStoreServerAPIError) in
            try await client.lookUpOrderID(id)
        }
        if self.options.json {
            print(JSONOutput.line(response))
            return
        }
        let status: String
        switch response.status {
        case .valid?: status = "0 valid"
        case .invalid?: status = "1 invalid"
        case let other?: status = other.description
        case nil: status = "-"
        }
        print("order \(id) status \(status)")
        for transaction in response.transactions { print(APIText.transaction(transaction)) }
    }
}
