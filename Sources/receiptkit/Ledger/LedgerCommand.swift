import ArgumentParser

struct LedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Work with the verifyReceipt service's ledger outside the service.",
        subcommands: [LedgerImportCommand.self]
    )
}
