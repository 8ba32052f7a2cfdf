import ArgumentParser

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "An App Store in a box: play a scenario's notifications to a backend while serving its Server API.",
        discussion: """
            A scenario (JSON; Examples/Scenarios/scenario.schema.json) names apps, products, customers and a \
            timeline of events — purchases, renewals, billing failures, upgrades, refunds, Family Sharing, … \
            `receiptkit simulate --scenario FILE --notify URL` plays it: see `receiptkit simulate play --help`.
            """,
        subcommands: [SimulatePlayCommand.self, SimulateCheckCommand.self, SimulateExportCommand.self],
        defaultSubcommand: SimulatePlayCommand.self
    )
}
