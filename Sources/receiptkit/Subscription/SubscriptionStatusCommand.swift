import ArgumentParser
import AppStorePKI
import Foundation
import ReceiptLedger
import ReceiptService

struct SubscriptionStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Each auto-renewable subscription's Apple status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).")

    @Argument(help: "A transaction id or original transaction id of the customer.")
    var id: String

    @OptionGroup
    var options: SubscriptionOptions

    func run() async throws {
        try await self.options.customer(self.id, SubscriptionReport.statuses, text: SubscriptionText.statuses)
    }
}

struct SubscriptionHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The customer's transactions, every page, in the order the ledger learnt of them.")

    @OptionGroup
    var options: SubscriptionOptions

    @Argument(help: "A transaction id or original transaction id of the customer.")
    var id: String

    func run() async throws {
        try await self.options.customer(self.id, SubscriptionReport.history, text: SubscriptionText.history)
    }
}

struct SubscriptionEntitlementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlements",
        abstract: "What the customer is entitled to at a moment: one line per subscription and product, and the names.")

    @Argument(help: "A transaction id or original transaction id of the customer (or give --app-account-token).")
    var id: String?

    @Option(help: "The UUID the app set at purchase, instead of an id.")
    var appAccountToken: String?

    @OptionGroup
    var options: SubscriptionOptions

    func validate() throws {
        guard (self.id == nil) != (self.appAccountToken == nil) else {
            throw ValidationError("give a transaction id or --app-account-token, not both")
        }
    }

    func run() async throws {
        let customer: EntitlementQuery.Customer = self.appAccountToken.map { .appAccountToken($0.lowercased()) }
            ?? .transactionID(self.id ?? "")
        let query = EntitlementQuery(
            bundleIdentifier: self.options.bundleID, environment: self.options.appStoreEnvironment ?? .production,
            customer: customer, moment: self.options.moment)
        let moment = self.options.moment
        try await self.options.answer({ ledger, names in
            await SubscriptionReport.entitlements(query, in: ledger, names: names, now: { moment })
        }, text: SubscriptionText.entitlements)
    }
}
