import ArgumentParser

struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Work with the App Store Server Notifications the service records.",
        subcommands: [NotificationsBackfillCommand.self, OutboxCommand.self]
    )
}
