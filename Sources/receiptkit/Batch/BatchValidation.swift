import Foundation
import ReceiptKit

#if canImport(Glibc)
import Glibc
import _ReceiptKitShared
#endif

/// Validates a stream of inputs with `jobs` workers, printing one JSON line per input (in completion order, or in
/// input order with `ordered`), progress on standard error when it is a terminal, and a summary at the end.
///
/// Memory stays flat in the number of inputs: inputs are read from the source as workers ask for them, lines go
/// to standard output as they are done (or, in input order, wait in a window of at most `64 × jobs` lines).
struct BatchValidation {
    var inputs: [ReceiptBatchSource.Input]
    var options: ReceiptBatchSource.Options
    var jobs: Int
    var ordered: Bool
    /// Makes each worker's validation function (called once per worker, so each can own its caches); the function
    /// returns `nil` to skip an input (no line, not counted).
    var makeWorker: @Sendable () -> @Sendable (ReceiptBatchSource.Item) async -> Outcome?

    func run() async -> ExitStatus {
        Self.keepFreedMemory()
        let clock = ContinuousClock()
        let start = clock.now
        let showsProgress = StandardError.isTerminal
        let knownTotal = showsProgress ? BatchTotal.known(self.inputs) : nil
        let coordinator = BatchCoordinator(
            source: ReceiptBatchSource(self.inputs, options: self.options),
            ordered: self.ordered,
            window: 64 * self.jobs,
            showsProgress: showsProgress,
            total: knownTotal
        )
        if showsProgress, knownTotal == nil {
            BatchTotal.count(self.inputs, options: self.options) { coordinator.setTotal($0) }
        }

        let makeWorker = self.makeWorker
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, self.jobs) {
                group.addTask {
                    let validate = makeWorker()
                    while let (sequence, item) = await coordinator.next() {
                        guard let outcome = await validate(item) else {
                            coordinator.skip(sequence)
                            continue
                        }
                        let line = outcome.report(file: item.file, line: item.line).jsonLine()
                        coordinator.complete(sequence, status: outcome.status, line: line)
                    }
                }
            }
        }

        let finish = coordinator.finish()
        if finish.progressDrawn { StandardError.write("\n") }
        let elapsed = DurationConversion.seconds(clock.now - start)
        let counts = coordinator.counts
        StandardError.write(
            "receiptkit: \(coordinator.done) receipts: \(counts[.valid, default: 0]) valid, "
                + "\(counts[.invalid, default: 0]) invalid, \(counts[.malformed, default: 0]) malformed, "
                + "\(counts[.unreadable, default: 0]) unreadable in \(String(format: "%.2f", elapsed)) s\n"
        )
        if let failure = finish.outputFailure {
            StandardError.write("receiptkit: standard output: write failed: \(String(cString: strerror(failure)))\n")
            return max(coordinator.worst, .cannotCreate)
        }
        return coordinator.worst
    }

    /// Asks glibc's allocator to keep up to 8 MiB of freed memory at the top of each heap instead of returning it at
    /// once (its default is 128 KiB). Workers free what they allocated receipt after receipt; with the default, a batch
    /// with two jobs made many `madvise` calls, each a TLB shootdown interrupting the other core, and ran slower
    /// (`Benchmarks/README.md`, Measurements). Memory stays flat: what is kept is reused by the next receipt.
    ///
    /// `mallopt` is looked up at run time: Swift's Glibc module does not import `malloc.h`. `M_TRIM_THRESHOLD` is -1
    /// in glibc's ABI.
    static func keepFreedMemory() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-1, 8 * 1024 * 1024)
        #endif
    }
}
