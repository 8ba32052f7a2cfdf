import ArgumentParser
import Foundation
import ReceiptKit
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared

struct OutboxRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Send outbox entries again now: parked ones (or --state pending: those waiting their next attempt).",
        discussion: """
            The entries matched are made pending and due now, with a new deadline (notification_forwarding's \
            deadline_seconds from now); a running service sends them within a second. Give --target, --uuid or \
            both, or --all. Exit status 0 when an entry was retried, 1 when none matched, 69 the ledger unavailable.
            """
    )

    @OptionGroup var options: OutboxOptions

    @Option(help: "Which entries: parked (default) or pending.")
    var state: OutboxStateOption = .parked

    @Flag(help: "Every matching entry of every target.")
    var all = false

    func validate() throws {
        if !self.all, self.options.target == nil, self.options.notificationUUID == nil {
            throw ValidationError("give --target, --uuid or --all")
        }
    }

    func run() async throws {
        let filter = self.options.filter(state: self.state.state)
        let now = Date().epochMilliseconds
        let count = try await self.options.withLedger { ledger, accepted throws(LedgerError) in
            let deadline = now.addingReportingOverflow(
                Int64(clamping: accepted.notifications.forwarding.deadline.components.seconds).multipliedReportingOverflow(by: 1000).partialValue)
            return try await ledger.retryOutbox(
                filter, atMilliseconds: now, deadlineMilliseconds: deadline.overflow ? .max : deadline.partialValue)
        }
        print("\(count) entr\(count == 1 ? "y" : "ies") retried")
        if count == 0 { throw ExitCode(ExitStatus.invalid.rawValue) }
    }
}
