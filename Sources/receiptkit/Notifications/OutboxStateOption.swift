import ArgumentParser
import ReceiptLedger

/// `--state pending|parked` of the outbox commands.
enum OutboxStateOption: String, ExpressibleByArgument, CaseIterable {
    case pending
    case parked

    var state: LedgerOutboxEntry.State {
        switch self {
        case .pending: .pending
        case .parked: .parked
        }
    }
}
