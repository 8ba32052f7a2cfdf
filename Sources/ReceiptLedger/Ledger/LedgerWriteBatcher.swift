import NIOConcurrencyHelpers

/// Group commit: concurrent writes share one database transaction, and so one commit (one fsync of SQLite's WAL,
/// one durable commit of PostgreSQL) instead of one each.
///
/// A write waits in a queue; one drain at a time takes every write waiting (at most ``maximumBatch``), runs them in
/// one transaction — the receipts among them together (``ReceiptBatch``), then the others in order — and answers
/// each once that transaction has committed — never before, so an acknowledged write is as durable as one committed
/// alone. A database that is unavailable (every write would fail alike) fails the batch with its retryable error, and
/// the writes queued behind it at once, as fast as one write alone would fail; any other failure of a batch of
/// several runs each of its writes again alone, so one write the database refuses never takes the others with it.
final class LedgerWriteBatcher<Backend: SQLBackend>: Sendable {
    /// One write waiting, and how to answer it. Exactly one of `work`'s acknowledgement or `fail` answers it.
    private struct Pending: Sendable {
        let work: Work
        let fail: @Sendable (any Error) -> Void
    }

    private enum Work: Sendable {
        /// A receipt, recorded with the batch's others; acknowledged with its summary.
        case receipt(LedgerReceipt, acknowledge: @Sendable (LedgerWriteSummary) -> Void)
        /// Statements run in the batch's transaction; returns how to acknowledge them once committed.
        case statements(@Sendable (any SQLSession) async throws -> @Sendable () -> Void)
    }

    private struct State {
        var queue: [Pending] = []
        var draining = false
        var statistics = LedgerWriteStatistics(transactions: 0, writes: 0)
    }

    let backend: Backend
    let receipts: ReceiptBatch
    /// The most writes one transaction holds. A service's requests rarely reach it (a connection has one request in
    /// flight); an import's chunks do, and the larger the transaction, the fewer times the index pages its receipts
    /// share are written (`receiptkit ledger import`; the ledger's Measurements).
    let maximumBatch: Int
    private let state = NIOLockedValueBox(State())

    init(backend: Backend, statements: LedgerStatements, maximumBatch: Int = 4096) {
        self.backend = backend
        self.receipts = ReceiptBatch(statements: statements)
        self.maximumBatch = max(1, maximumBatch)
    }

    /// Records `receipt` with the receipts waiting with it, and returns its summary once their transaction has
    /// committed. Once queued, the write is carried out even if the caller is cancelled.
    func record(_ receipt: LedgerReceipt) async throws -> LedgerWriteSummary {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<LedgerWriteSummary, any Error>) in
            self.enqueue(
                Pending(
                    work: .receipt(receipt, acknowledge: { continuation.resume(returning: $0) }),
                    fail: { continuation.resume(throwing: $0) }))
        }
    }

    /// Runs `body` in a transaction shared with the writes waiting with it, and returns its value once that
    /// transaction has committed. Once queued, the write is carried out even if the caller is cancelled.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            self.enqueue(
                Pending(
                    work: .statements({ session in
                        let value = try await body(session)
                        return { continuation.resume(returning: value) }
                    }),
                    fail: { continuation.resume(throwing: $0) }))
        }
    }

    private func enqueue(_ pending: Pending) {
        let starts = self.state.withLockedValue { state in
            state.queue.append(pending)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        // Detached: the drain serves every caller, not the request that happened to start it.
        if starts { Task.detached { await self.drain() } }
    }

    /// Writes waiting for a transaction (not those of the transaction running).
    var queued: Int {
        self.state.withLockedValue { $0.queue.count }
    }

    /// Transactions run so far, and the writes they carried.
    var statistics: LedgerWriteStatistics {
        self.state.withLockedValue { $0.statistics }
    }

    /// Runs batches until the queue is empty; the next write queued after that starts a drain again.
    private func drain() async {
        while true {
            let batch = self.state.withLockedValue { state -> [Pending] in
                let batch = Array(state.queue.prefix(self.maximumBatch))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            await self.run(batch)
        }
    }

    private func run(_ batch: [Pending]) async {
        self.state.withLockedValue { state in
            state.statistics.transactions &+= 1
            state.statistics.writes &+= UInt64(batch.count)
        }
        do {
            let receipts = self.receipts
            let acknowledgements = try await self.backend.transaction(exclusive: false) { session in
                var acknowledgements: [@Sendable () -> Void] = []
                acknowledgements.reserveCapacity(batch.count)
                var recorded: [(receipt: LedgerReceipt, acknowledge: @Sendable (LedgerWriteSummary) -> Void)] = []
                for pending in batch {
                    if case .receipt(let receipt, let acknowledge) = pending.work { recorded.append((receipt, acknowledge)) }
                }
                if !recorded.isEmpty {
                    var summaries = try await receipts.record(recorded.map(\.receipt), in: session)
                    for (receipt, acknowledge) in recorded {
                        // A receipt posted twice in one batch was inserted once: the second finds it recorded.
                        let summary = summaries.removeValue(forKey: receipt.hash)
                            ?? LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0)
                        acknowledgements.append { acknowledge(summary) }
                    }
                }
                for pending in batch {
                    if case .statements(let run) = pending.work { acknowledgements.append(try await run(session)) }
                }
                return acknowledgements
            }
            for acknowledge in acknowledgements { acknowledge() }
        } catch {
            let retryable = self.backend.ledgerError(error).isRetryable
            if batch.count > 1, !retryable {
                for pending in batch { await self.run([pending]) }
                return
            }
            for pending in batch { pending.fail(error) }
            guard retryable else { return }
            // The database is unavailable: the writes queued meanwhile fail now too, as fast as this one did, not
            // each batch after a wait of its own.
            let queued = self.state.withLockedValue { state in
                defer { state.queue.removeAll() }
                return state.queue
            }
            for pending in queued { pending.fail(error) }
        }
    }
}
