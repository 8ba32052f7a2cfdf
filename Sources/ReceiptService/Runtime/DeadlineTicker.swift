import class Foundation.NSLock

/// Time limits for many concurrent operations, kept by one ticking task instead of a timer each.
///
/// Measured under load (`wrk -c64` on `POST /verifyReceipt`, `perf record` of the service): a timer per limit —
/// `Task.sleep` in a task group, twice a request — put libdispatch's timer thread and timer heap at about 15 % of
/// the service's CPU time. Here an operation writes its deadline into a table; while the table is not empty, one
/// task wakes every ``resolution`` and cancels the operations past due. A limit may thus be exceeded by up to one
/// resolution (and by the time the operation takes to notice its cancellation).
///
/// Elapsed time is measured on the continuous clock: a resource bound, not logic.
final class DeadlineTicker: @unchecked Sendable {
    /// The service's ticker.
    static let shared = DeadlineTicker(resolution: .milliseconds(50))

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    /// How often past-due operations are looked for.
    let resolution: Duration
    private let lock = NSLock()
    // Guarded by `lock`:
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var isTicking = false

    init(resolution: Duration) {
        self.resolution = resolution
    }

    /// Operations waiting for their result now.
    var pending: Int {
        self.lock.withLock { self.entries.count }
    }

    /// Runs `operation` with a time limit: its result, or `nil` when `limit` passed first (the operation is then
    /// cancelled, and waited for; what it threw or returned is dropped). Cancelling the calling task cancels the
    /// operation.
    func run<T: Sendable>(
        limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let deadline = ContinuousClock.now + limit
        let state = Expiry()
        let task = Task {
            // Finished is judged when the operation ends, not when its caller next runs: on a busy pool the caller
            // may resume after the deadline, and an answer that was in time must not be dropped.
            defer { state.finish() }
            return try await operation()
        }
        let id = self.register(deadline: deadline) {
            if state.expire() { task.cancel() }
        }
        defer { self.unregister(id) }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        // Past the limit the answer is `nil`, whatever the cancelled operation threw or returned.
        if state.isExpired { return nil }
        return try result.get()
    }

    private func register(deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, startsTicking) = self.lock.withLock { () -> (UInt64, Bool) in
            self.nextID &+= 1
            self.entries[self.nextID] = Entry(deadline: deadline, expire: expire)
            let starts = !self.isTicking
            self.isTicking = true
            return (self.nextID, starts)
        }
        if startsTicking {
            Task.detached { await self.tick() }
        }
        return id
    }

    private func unregister(_ id: UInt64) {
        self.lock.withLock { _ = self.entries.removeValue(forKey: id) }
    }

    /// Wakes every `resolution` while operations are pending; stops when none is.
    private func tick() async {
        while true {
            try? await Task.sleep(for: self.resolution)
            let now = ContinuousClock.now
            let due = self.lock.withLock { () -> [Entry]? in
                if self.entries.isEmpty {
                    self.isTicking = false
                    return nil
                }
                let due = self.entries.filter { $0.value.deadline <= now }
                for id in due.keys { self.entries.removeValue(forKey: id) }
                return Array(due.values)
            }
            guard let due else { return }
            for entry in due { entry.expire() }
        }
    }

    /// Whether an operation ended in time or its limit passed first: ended by the operation's task, expired by
    /// the ticking task, whichever comes first; read by the operation's caller.
    final class Expiry: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = false
        private var expired = false

        func finish() {
            self.lock.withLock { self.ended = true }
        }

        /// Marks the limit passed unless the operation has ended; whether it did.
        func expire() -> Bool {
            self.lock.withLock {
                guard !self.ended else { return false }
                self.expired = true
                return true
            }
        }

        var isExpired: Bool {
            self.lock.withLock { self.expired }
        }
    }
}
