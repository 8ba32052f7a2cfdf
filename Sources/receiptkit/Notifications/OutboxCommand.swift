import ArgumentParser

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "See, retry and drop the notifications waiting to be sent on to notification_targets.",
        discussion: """
            The outbox is in the ledger: every instance of the service sharing it sends from it. Delivered \
            entries are deleted; an entry is pending until delivered, or parked once its deadline passed.
            """,
        subcommands: [OutboxListCommand.self, OutboxRetryCommand.self, OutboxDropCommand.self]
    )
}
