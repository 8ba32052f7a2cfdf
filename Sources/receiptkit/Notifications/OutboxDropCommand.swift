import ArgumentParser
import ReceiptLedger

struct OutboxDropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Delete outbox entries unsent (the notifications stay in the ledger).",
        discussion: """
            Give --target, --uuid or both; --state narrows it to pending or parked entries. Exit status 0 when an \
            entry was dropped, 1 when none matched, 69 the ledger unavailable.
            """
    )

    @OptionGroup var options: OutboxOptions

    @Option(help: "Only pending or only parked entries.")
    var state: OutboxStateOption?

    func validate() throws {
        if self.options.target == nil, self.options.notificationUUID == nil {
            throw ValidationError("give --target, --uuid or both")
        }
    }

    func run() async throws {
        let filter = self.options.filter(state: self.state?.state)
        let count = try await self.options.withLedger { ledger, _ throws(LedgerError) in try await ledger.dropOutbox(filter) }
        print("\(count) entr\(count == 1 ? "y" : "ies") dropped")
        if count == 0 { throw ExitCode(ExitStatus.invalid.rawValue) }
    }
}
