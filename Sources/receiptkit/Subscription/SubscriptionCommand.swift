import ArgumentParser

struct SubscriptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscription",
        abstract: "Read a customer's subscriptions from the service's ledger: Apple's statuses, the history, the entitlements.",
        discussion: """
            The answers of the service's GET /inApps/v1/subscriptions/{id}, GET /inApps/v2/history/{id} (every page) \
            and GET /v1/entitlements, read from the ledger directly — for support staff and scripts: no token (you \
            hold the database), nothing asked of Apple (the ledger answers as it stands), the same rules and, with \
            --json, the same JSON. The id is any transaction id or original transaction id of the customer \
            (entitlements: also --app-account-token). The ledger is serve's (--database, --config, RECEIPTKIT_ \
            variables), never migrated: an SQLite file a running service owns cannot be opened (ask the service's \
            endpoints instead); PostgreSQL can be read beside running services.
            Exit status: 0 answered, 1 no such customer, 64 usage, 65 or 66 a settings file, 69 the database \
            unavailable or not at this build's schema version, 70 the ledger failed.
            """,
        subcommands: [SubscriptionStatusCommand.self, SubscriptionHistoryCommand.self, SubscriptionEntitlementsCommand.self]
    )
}
