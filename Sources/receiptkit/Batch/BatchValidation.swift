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
        let knownTotal = showsProgress ? self.knownTotal : nil
        let coordinator = BatchCoordinator(
            source: ReceiptBatchSource(self.inputs, options: self.options),
            ordered: self.ordered,
            window: 64 * self.jobs,
            showsProgress: showsProgress,
            total: knownTotal
        )
        if showsProgress, knownTotal == nil, self.canBeReadTwice {
            // Count the inputs on a thread of its own (directory entries and list lines are cheap to count) so the
            // progress line can show a total and a time left; it never holds up validation.
            let inputs = self.inputs
            let options = self.options
            Thread.detachNewThread {
                let counter = ReceiptBatchSource(inputs, options: options)
                var count = 0
                while counter.next() != nil { count += 1 }
                coordinator.setTotal(count)
            }
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
    private static func keepFreedMemory() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-1, 8 * 1024 * 1024)
        #endif
    }

    /// The number of inputs when every one is a plain file path (no directory, list or lines).
    private var knownTotal: Int? {
        var count = 0
        for input in self.inputs {
            guard case .path(let path) = input else { return nil }
            var isDirectory: ObjCBool = false
            if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return nil
            }
            count += 1
        }
        return count
    }

    /// Whether counting the inputs leaves them for the workers: lists and line files must be regular files (a
    /// pipe, standard input or `<(find …)`, gives its records to whoever reads them first).
    private var canBeReadTwice: Bool {
        self.inputs.allSatisfy { input in
            switch input {
            case .path: return true
            case .pathList(let path), .base64Lines(let path):
                // attributesOfItem does not follow links: /dev/fd/63 is a link to a pipe, and is not counted.
                let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
                return path != "-" && type == .typeRegular
            }
        }
    }
}
