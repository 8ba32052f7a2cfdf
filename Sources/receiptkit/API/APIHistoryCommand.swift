import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser
import Foundation
import ReceiptKit

/// `receiptkit api history <transaction-id>`: Get Transaction History v2, every page.
struct APIHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Get Transaction History v2: every transaction of the customer, every page, each verified.",
        discussion: """
            Follows revision/hasMore through every page (progress on stderr when it is a terminal). Prints a line \
            with the environment, the app and the count, then one line per transaction in Apple's order; --json \
            prints the last page's fields with every page's transactions under signedTransactions. Exit status as \
            `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "Any transaction id of the customer.")
    var transactionID: String

    @Option(name: .customLong("start"), help: "Only transactions purchased at or after this RFC 3339 time.")
    var start: String?

    @Option(name: .customLong("end"), help: "Only transactions purchased before this RFC 3339 time.")
    var end: String?

    @Option(name: .customLong("product-id"), help: "Only this product (repeatable).")
    var productIDs: [String] = []

    @Option(
        name: .customLong("product-type"),
        help: "Only this product type (repeatable): auto-renewable, non-renewable, consumable, non-consumable."
    )
    var productTypes: [String] = []

    @Option(help: "ascending or descending, by the date a transaction last changed (Apple's default: ascending).")
    var sort: String?

    @Option(help: "true: only revoked transactions; false: only those not revoked.")
    var revoked: Bool?

    @Option(
        name: .customLong("subscription-group-identifier"),
        help: "Only subscriptions of this subscription group (repeatable)."
    )
    var subscriptionGroupIdentifiers: [String] = []

    @Option(
        name: .customLong("in-app-ownership-type"),
        help: "purchased (bought by the customer), family-shared (shared through Family Sharing) or assigned."
    )
    var inAppOwnershipType: String?

    static let ownershipNames: [String: InAppOwnershipType] = [
        "purchased": .purchased, "family-shared": .familyShared, "assigned": .assigned,
    ]

    static let productTypeNames: [String: ProductType] = [
        "auto-renewable": .autoRenewable, "non-renewable": .nonRenewable, "consumable": .consumable,
        "non-consumable": .nonConsumable,
    ]

    func validate() throws {
        if self.transactionID.isEmpty { throw ValidationError("the transaction id must not be empty") }
        for (name, value) in [("--start", self.start), ("--end", self.end)] {
            if let value, RFC3339.date(value) == nil {
                throw ValidationError("\(name) takes an RFC 3339 time, not '\(value)'")
            }
        }
        for type in self.productTypes where Self.productTypeNames[type.lowercased()] == nil {
            throw ValidationError(
                "--product-type takes auto-renewable, non-renewable, consumable or non-consumable, not '\(type)'"
            )
        }
        if let sort, !["ascending", "descending"].contains(sort.lowercased()) {
            throw ValidationError("--sort takes ascending or descending, not '\(sort)'")
        }
        if let type = self.inAppOwnershipType, Self.ownershipNames[type.lowercased()] == nil {
            throw ValidationError("--in-app-ownership-type takes purchased, family-shared or assigned, not '\(type)'")
        }
        if self.subscriptionGroupIdentifiers.contains(where: \.isEmpty) {
            throw ValidationError("--subscription-group-identifier must not be empty")
        }
    }

    var filter: TransactionHistoryFilter {
        TransactionHistoryFilter(
            startDate: self.start.flatMap(RFC3339.date),
            endDate: self.end.flatMap(RFC3339.date),
            productIDs: self.productIDs,
            productTypes: self.productTypes.compactMap { Self.productTypeNames[$0.lowercased()] },
            sort: self.sort.map { $0.lowercased() == "descending" ? .descending : .ascending },
            subscriptionGroupIdentifiers: self.subscriptionGroupIdentifiers,
            inAppOwnershipType: self.inAppOwnershipType.flatMap { Self.ownershipNames[$0.lowercased()] },
            revoked: self.revoked
        )
    }

    /// Redraws `page 3, 60 transactions` on the terminal's current line.
    @Sendable static func drawProgress(pages: Int, transactions: Int) {
        StandardError.write("\rpage \(pages), \(transactions) transactions\u{1B}[K")
    }

    func run() async throws {
        let showsProgress = StandardError.isTerminal
        let progress: (@Sendable (Int, Int) -> Void)? = showsProgress ? Self.drawProgress : nil
        let filter = self.filter
        let id = self.transactionID
        let history = try await self.options.call("api history \(id)") { client throws(AppStoreServerAPIError) in
            defer { if showsProgress { StandardError.write("\r\u{1B}[K") } }
            return try await client.transactionHistory(transactionID: id, filter: filter, progress: progress)
        }
        if self.options.json {
            print(JSONOutput.line(history))
            return
        }
        let environment = history.environment?.rawValue ?? "-"
        let app = history.appAppleID.map(String.init) ?? "-"
        print("\(environment) \(history.bundleIdentifier ?? "-") app \(app): \(history.transactions.count) transactions")
        for transaction in history.transactions { print(APIText.transaction(transaction)) }
    }
}
