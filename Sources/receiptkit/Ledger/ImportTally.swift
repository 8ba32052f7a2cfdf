import NIOConcurrencyHelpers
import ReceiptLedger

/// The state an import's workers share, behind one lock: the counts, the progress, the refusals' JSON lines (to
/// standard output, in completion order) and the ledger failure that stops the import.
final class ImportTally: @unchecked Sendable {
    private let lock = NIOLock()
    private let sink: OutputSink
    // Guarded by `lock`:
    private var output: OutputBuffer
    private var progress: BatchProgress
    private var total: Int?
    private var counts = ImportCounts()
    private var worst = ExitStatus.valid
    private var failure: LedgerError?

    init(progressInPlace: Bool, total: Int?) {
        self.sink = OutputSink()
        self.output = OutputBuffer(flushesEachLine: self.sink.isTerminal)
        self.progress = BatchProgress(inPlace: progressInPlace)
        self.total = total
    }

    /// The ledger failure that stopped the import, if one did: workers take no more inputs.
    var stoppedBy: LedgerError? { self.lock.withLock { self.failure } }

    /// Sets the total once a background count knows it.
    func setTotal(_ total: Int) {
        self.lock.withLock { self.total = total }
    }

    /// Counts a receipt recorded by the import (`inserted`), or found recorded when written.
    func recorded(inserted: Bool) {
        self.count { counts in
            if inserted { counts.imported += 1 } else { counts.alreadyRecorded += 1 }
        }
    }

    /// Counts receipts skipped by hash: recorded before the import asked.
    func alreadyRecorded(_ count: Int) {
        guard count > 0 else { return }
        self.count { $0.alreadyRecorded += count }
    }

    /// Counts an input not imported, and writes its JSON line.
    func refuse(_ refusal: ImportRefusal) {
        let line = refusal.report.jsonLine()
        let chunk: [UInt8]? = self.lock.withLock {
            switch refusal.kind {
            case .refused: self.counts.refused += 1
            case .invalid: self.counts.invalid += 1
            case .malformed: self.counts.malformed += 1
            case .unreadable: self.counts.unreadable += 1
            }
            self.worst = max(self.worst, refusal.status)
            self.tick()
            let chunk = self.output.append(line)
            // Reserved under the lock, so chunks are written in the order they were taken.
            if chunk != nil { self.sink.reserve() }
            return chunk
        }
        if let chunk { self.sink.write(reserved: chunk) }
    }

    /// Stops the import: the first ledger failure is kept and said at the end.
    func stop(_ error: LedgerError) {
        self.lock.withLock {
            if self.failure == nil { self.failure = error }
        }
    }

    private func count(_ change: (inout ImportCounts) -> Void) {
        self.lock.withLock {
            change(&self.counts)
            self.tick()
        }
    }

    /// Draws the progress when it is due. Called with the lock held.
    private func tick() {
        self.progress.tick(done: self.counts.total, total: self.total)
    }

    /// Flushes the refusals; the counts, the worst status of the inputs, the failure that stopped the import, the
    /// `errno` of a failed output write, and whether a progress line was drawn in place.
    func finish() -> (counts: ImportCounts, worst: ExitStatus, failure: LedgerError?, outputFailure: Int32?, progressDrawn: Bool) {
        let (rest, counts, worst, failure, drawn) = self.lock.withLock {
            self.sink.reserve()
            return (self.output.take(), self.counts, self.worst, self.failure, self.progress.drawn)
        }
        self.sink.write(reserved: rest)
        return (counts, worst, failure, self.sink.writeFailure, drawn)
    }
}
