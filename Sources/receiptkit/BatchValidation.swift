import Foundation
import ReceiptKit

/// Validates many files with `jobs` workers, printing one JSON line per file in completion order, progress on
/// standard error when it is a terminal, and a summary at the end.
///
/// Each worker takes the next path from a shared counter, validates it and renders its JSON line, then hands the
/// line to the printer through a stream: workers never wait for output, and the printer does nothing but write.
struct BatchValidation {
    var paths: [String]
    var jobs: Int
    var validate: @Sendable (String) async -> Outcome

    func run() async -> ExitStatus {
        let paths = self.paths
        guard !paths.isEmpty else { return .valid }
        let validate = self.validate
        let cursor = NextIndex()
        let (lines, continuation) = AsyncStream.makeStream(of: (ExitStatus, String).self)
        let showProgress = StandardError.isTerminal
        let start = ContinuousClock.now

        return await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, min(self.jobs, paths.count)) {
                group.addTask {
                    while let index = cursor.take(below: paths.count) {
                        let outcome = await validate(paths[index])
                        continuation.yield((outcome.status, JSONOutput.line(outcome.report(file: paths[index]))))
                    }
                }
            }
            var worst = ExitStatus.valid
            var counts: [ExitStatus: Int] = [:]
            var done = 0
            for await (status, line) in lines {
                print(line)
                worst = max(worst, status)
                counts[status, default: 0] += 1
                done += 1
                if showProgress {
                    StandardError.write("\r\(done)/\(paths.count) receipts")
                }
                if done == paths.count { continuation.finish() }
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if showProgress { StandardError.write("\n") }
            StandardError.write(
                "receiptkit: \(paths.count) receipts: \(counts[.valid, default: 0]) valid, "
                    + "\(counts[.invalid, default: 0]) invalid, \(counts[.malformed, default: 0]) malformed, "
                    + "\(counts[.unreadable, default: 0]) unreadable in \(String(format: "%.2f", seconds)) s\n"
            )
            return worst
        }
    }
}

/// A shared counter handing out each index once.
final class NextIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        self.lock.lock()
        defer { self.lock.unlock() }
        guard self.value < limit else { return nil }
        self.value += 1
        return self.value - 1
    }
}
