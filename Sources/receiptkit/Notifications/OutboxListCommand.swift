import ArgumentParser
import Foundation
import ReceiptLedger
import _ReceiptKitShared

struct OutboxListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List outbox entries, oldest first, and each target's totals.",
        discussion: """
            One line per entry on standard output (--json: one JSON object each): target, notificationUUID, \
            state, type, app, original transaction, attempts, the next attempt, the deadline and the last failure. \
            Each target's pending and parked totals go to standard error. Exit status 0; 69 the ledger unavailable.
            """
    )

    @OptionGroup var options: OutboxOptions

    @Option(help: "Only pending or only parked entries.")
    var state: OutboxStateOption?

    @Option(help: "The most entries listed (1 to 100000).")
    var limit = 1000

    @Flag(help: "One JSON object per entry.")
    var json = false

    func validate() throws {
        guard (1...100_000).contains(self.limit) else { throw ValidationError("--limit must be in 1...100000") }
    }

    func run() async throws {
        let filter = self.options.filter(state: self.state?.state, limit: self.limit)
        let (entries, totals) = try await self.options.withLedger { ledger, _ throws(LedgerError) in
            (try await ledger.outboxEntries(filter), try await ledger.outboxTotals())
        }
        for entry in entries {
            print(self.json ? String(decoding: OutboxListing.json(entry).serialized, as: UTF8.self) : OutboxListing.text(entry))
        }
        for total in totals where self.options.target == nil || total.target == self.options.target {
            StandardError.write("\(total.target): \(total.pending) pending, \(total.parked) parked\n")
        }
    }
}
