import Foundation
import NIOConcurrencyHelpers
import ReceiptKit

/// The state a batch's workers share, behind one lock: the output (in completion order, or in input order through a
/// bounded reordering window), the counts and the progress line. Inputs come from a ``BatchReadAhead``.
///
/// Workers take an input, validate it and render its line without the lock; only handing back (and, in input order,
/// reserving a place in the window) holds it.
/// A worker whose line completes a chunk of output writes it after letting go of the lock (see ``OutputSink``).
final class BatchCoordinator: @unchecked Sendable {
    private let lock = NIOLock()
    private let inputs: BatchReadAhead
    private let ordered: Bool
    /// In input order, how far ahead of the oldest unfinished input workers may run; bounds the lines held back.
    private let window: Int
    /// In input order, the places taken in the window: inputs being validated or held back, plus reservations.
    private var issued = 0
    /// In input order, the inputs whose lines (or skips) have gone to the output.
    private var written = 0
    private var heldBack: [Int: [UInt8]] = [:]
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let sink: OutputSink
    private var output: OutputBuffer
    private var progress: BatchProgress?
    private var total: Int?
    private(set) var counts: [ExitStatus: Int] = [:]
    private(set) var worst = ExitStatus.valid
    private(set) var done = 0

    init(source: ReceiptBatchSource, ordered: Bool, window: Int, showsProgress: Bool, total: Int?) {
        self.inputs = BatchReadAhead(source: source)
        self.ordered = ordered
        self.window = max(1, window)
        self.progress = showsProgress ? BatchProgress() : nil
        self.total = total
        self.sink = OutputSink()
        self.output = OutputBuffer(flushesEachLine: self.sink.isTerminal)
    }

    /// The next input and its sequence number, or `nil` when there are no more. In input order, waits while the
    /// window is full.
    func next() async -> (sequence: Int, item: ReceiptBatchSource.Item)? {
        if self.ordered {
            // Reserve a place in the window before taking an input: every input taken has one, so an input's
            // sequence number stays within `window` of the oldest one not yet written.
            while !self.lock.withLock({ self.reserve() }) {
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
        guard let taken = self.inputs.next() else {
            if self.ordered {
                let woken: [CheckedContinuation<Void, Never>] = self.lock.withLock {
                    self.issued -= 1
                    var woken: [CheckedContinuation<Void, Never>] = []
                    swap(&woken, &self.waiters)
                    return woken
                }
                for continuation in woken { continuation.resume() }
            }
            return nil
        }
        return taken
    }

    /// Takes a place in the input-order window, if one is free. Called with the lock held.
    private func reserve() -> Bool {
        guard self.issued - self.written < self.window else { return false }
        self.issued += 1
        return true
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
        let (woken, chunk): ([CheckedContinuation<Void, Never>], [UInt8]?) = self.lock.withLock {
            if let status {
                self.counts[status, default: 0] += 1
                self.worst = max(self.worst, status)
                self.done += 1
            }
            var woken: [CheckedContinuation<Void, Never>] = []
            var chunk: [UInt8]?
            if self.ordered {
                self.heldBack[sequence] = line
                while let next = self.heldBack.removeValue(forKey: self.written) {
                    if !next.isEmpty, let full = self.output.append(next) {
                        chunk = (chunk ?? []) + full
                    }
                    self.written += 1
                }
                swap(&woken, &self.waiters)
            } else if status != nil {
                chunk = self.output.append(line)
            }
            self.progress?.tick(done: self.done, total: self.total)
            // Reserved under the lock, so chunks are written in the order they were taken.
            if chunk != nil { self.sink.reserve() }
            return (woken, chunk)
        }
        if let chunk { self.sink.write(reserved: chunk) }
        for continuation in woken { continuation.resume() }
    }

    /// Sets the total once a background count knows it.
    func setTotal(_ total: Int) {
        self.lock.withLock { self.total = total }
    }

    /// Flushes the output; the `errno` of a failed write, if any.
    func finish() -> (outputFailure: Int32?, progressDrawn: Bool, seconds: Double) {
        let (rest, progressDrawn, seconds) = self.lock.withLock {
            self.sink.reserve()
            return (self.output.take(), self.progress?.drawn ?? false, self.progress?.elapsed ?? 0)
        }
        self.sink.write(reserved: rest)
        return (self.sink.writeFailure, progressDrawn, seconds)
    }
}
