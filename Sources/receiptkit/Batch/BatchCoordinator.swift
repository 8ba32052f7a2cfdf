import Foundation
import ReceiptKit

/// The state a batch's workers share, behind one lock: the input source, the output (in completion order, or in
/// input order through a bounded reordering window), the counts and the progress line.
///
/// Workers take an input, validate it and render its line without the lock; only taking and handing back hold it.
final class BatchCoordinator: @unchecked Sendable {
    private let lock = NSLock()
    private let source: ReceiptBatchSource
    private let ordered: Bool
    /// In input order, how far ahead of the oldest unfinished input workers may run; bounds the lines held back.
    private let window: Int
    private var issued = 0
    private var written = 0
    private var heldBack: [Int: [UInt8]] = [:]
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var output = OutputBuffer()
    private var progress: BatchProgress?
    private var total: Int?
    private(set) var counts: [ExitStatus: Int] = [:]
    private(set) var worst = ExitStatus.valid
    private(set) var done = 0

    init(source: ReceiptBatchSource, ordered: Bool, window: Int, showsProgress: Bool, total: Int?) {
        self.source = source
        self.ordered = ordered
        self.window = max(1, window)
        self.progress = showsProgress ? BatchProgress() : nil
        self.total = total
    }

    private enum Take {
        case item(Int, ReceiptBatchSource.Item)
        case finished
        case windowFull
    }

    /// The next input and its sequence number, or `nil` when there are no more. In input order, waits while the
    /// window is full.
    func next() async -> (sequence: Int, item: ReceiptBatchSource.Item)? {
        while true {
            let take: Take = self.lock.withLock {
                if self.ordered, self.issued - self.written >= self.window { return .windowFull }
                guard let item = self.source.next() else { return .finished }
                self.issued += 1
                return .item(self.issued - 1, item)
            }
            switch take {
            case .item(let sequence, let item): return (sequence, item)
            case .finished: return nil
            case .windowFull:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waits = self.lock.withLock {
                        guard self.issued - self.written >= self.window else { return false }
                        self.waiters.append(continuation)
                        return true
                    }
                    if !waits { continuation.resume() }
                }
            }
        }
    }

    /// Hands back the line of input `sequence`.
    func complete(_ sequence: Int, status: ExitStatus, line: [UInt8]) {
        self.hand(sequence, status: status, line: line)
    }

    /// Marks input `sequence` as skipped: no line, not counted.
    func skip(_ sequence: Int) {
        self.hand(sequence, status: nil, line: [])
    }

    private func hand(_ sequence: Int, status: ExitStatus?, line: [UInt8]) {
        let woken: [CheckedContinuation<Void, Never>] = self.lock.withLock {
            if let status {
                self.counts[status, default: 0] += 1
                self.worst = max(self.worst, status)
                self.done += 1
            }
            var woken: [CheckedContinuation<Void, Never>] = []
            if self.ordered {
                self.heldBack[sequence] = line
                while let next = self.heldBack.removeValue(forKey: self.written) {
                    if !next.isEmpty { self.output.append(next) }
                    self.written += 1
                }
                swap(&woken, &self.waiters)
            } else if status != nil {
                self.output.append(line)
            }
            self.progress?.tick(done: self.done, total: self.total)
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Sets the total once a background count knows it.
    func setTotal(_ total: Int) {
        self.lock.withLock { self.total = total }
    }

    /// Flushes the output; the `errno` of a failed write, if any.
    func finish() -> (outputFailure: Int32?, progressDrawn: Bool, seconds: Double) {
        self.lock.withLock {
            self.output.flush()
            return (self.output.failure, self.progress?.drawn ?? false, self.progress?.elapsed ?? 0)
        }
    }
}
