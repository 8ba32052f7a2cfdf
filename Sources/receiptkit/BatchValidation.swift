import Foundation
import ReceiptKit

/// Validates many files with bounded parallelism, printing one JSON line per file in completion order, progress on
/// standard error when it is a terminal, and a summary at the end.
struct BatchValidation {
    var paths: [String]
    var jobs: Int
    var validate: @Sendable (String) async -> Outcome

    func run() async -> ExitStatus {
        var worst = ExitStatus.valid
        var counts: [ExitStatus: Int] = [:]
        var done = 0
        let showProgress = StandardError.isTerminal
        let start = ContinuousClock.now

        await withTaskGroup(of: (String, Outcome).self) { group in
            var next = 0
            func submit() {
                guard next < self.paths.count else { return }
                let path = self.paths[next]
                next += 1
                group.addTask { (path, await self.validate(path)) }
            }
            for _ in 0..<min(self.jobs, self.paths.count) { submit() }
            while let (path, outcome) = await group.next() {
                print(JSONOutput.line(outcome.report(file: path)))
                worst = max(worst, outcome.status)
                counts[outcome.status, default: 0] += 1
                done += 1
                if showProgress {
                    StandardError.write("\r\(done)/\(self.paths.count) receipts")
                }
                submit()
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if showProgress { StandardError.write("\n") }
        StandardError.write(
            "receiptkit: \(self.paths.count) receipts: \(counts[.valid, default: 0]) valid, "
                + "\(counts[.invalid, default: 0]) invalid, \(counts[.malformed, default: 0]) malformed, "
                + "\(counts[.unreadable, default: 0]) unreadable in \(String(format: "%.2f", seconds)) s\n"
        )
        return worst
    }
}
