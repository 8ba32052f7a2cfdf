import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api statuses <transaction-id>`: Get All Subscription Statuses.
struct APIStatusesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statuses",
        abstract:
            "Get All Subscription Statuses: each subscription's status, last transaction and renewal info, verified.",
        discussion: """
            Prints, for each subscription group, a line `group <id>`, then for each subscription a line \
            `  <originalTransactionId> status <n> <name>`, its last transaction's line and its renewal info's \
            (`renewal <originalTransactionId> auto-renew on|off <product> [renews <RFC 3339>] …`). --json prints \
            Apple's answer with signedTransactionInfo and signedRenewalInfo replaced by their verified payloads. \
            Exit status as `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "Any transaction id of the customer.")
    var transactionID: String

    @Option(
        help:
            "Only subscriptions in this status (repeatable): 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked."
    )
    var status: [Int64] = []

    func validate() throws {
        if self.transactionID.isEmpty { throw ValidationError("the transaction id must not be empty") }
        for status in self.status where !(1...5).contains(status) {
            throw ValidationError("--status takes 1 to 5, not \(status)")
        }
    }

    func run() async throws {
        let id = self.transactionID
        let filter = self.status.map { SubscriptionStatus(rawValue: $0) }
        let response = try await self.options.call("api statuses \(id)") { client throws(AppStoreServerAPIError) in
            try await client.allSubscriptionStatuses(transactionID: id, status: filter)
        }
        if self.options.json {
            print(JSONOutput.line(response))
            return
        }
        for group in response.data {
            print("group \(group.subscriptionGroupIdentifier ?? "-")")
            for item in group.lastTransactions {
                print("  \(item.originalTransactionID ?? "-") status \(APIText.status(item.status))")
                if let transaction = item.transaction { print("    " + APIText.transaction(transaction)) }
                if let renewal = item.renewalInfo { print("    " + APIText.renewal(renewal)) }
            }
        }
    }
}
