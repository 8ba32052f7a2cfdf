import AppStorePKI
import Foundation
import NIOConcurrencyHelpers
import ReceiptService

/// The progress of `receiptkit notifications backfill` on standard error: on a terminal one line redrawn, else a
/// line per page at most every ten seconds.
final class BackfillProgress: Sendable {
    private let inPlace: Bool
    private let state = NIOLockedValueBox((drawn: false, last: ContinuousClock.Instant?.none))

    init(inPlace: Bool) { self.inPlace = inPlace }

    func show(_ report: NotificationBackfillReport) {
        let line = "\(report.bundleIdentifier) \(report.environment.rawValue): \(report.pages) pages, \(report.found) found, "
            + "\(report.recorded) new, \(report.duplicates) duplicate, \(report.refusedCount) refused"
        let now = ContinuousClock.now
        self.state.withLockedValue { state in
            if self.inPlace {
                StandardError.write("\r\u{1B}[K" + line)
                state.drawn = true
            } else if state.last.map({ now - $0 >= .seconds(10) }) ?? true {
                StandardError.write("receiptkit: " + line + "\n")
                state.last = now
            }
        }
    }

    func end() {
        self.state.withLockedValue { state in
            if state.drawn { StandardError.write("\n") }
            state.drawn = false
        }
    }
}
