import NIOConcurrencyHelpers

/// Time limits for many concurrent operations, kept by one ticking task instead of a timer each (a timer per
/// limit is costly under load; the service's and the ledger's DocC catalogs give the measurements): the service's
/// request deadlines, and the ledger's PostgreSQL leases.
///
/// An operation writes its deadline into a table; while the table is not empty, one task wakes every
/// ``resolution`` and cancels the operations past due. A limit may thus be exceeded by up to one
/// resolution (and by the time the operation takes to notice its cancellation).
///
/// Elapsed time is measured on the continuous clock: a resource bound, not logic.
package final class DeadlineTicker: Sendable {
    /// The process's ticker: the service's request deadlines and the ledger's PostgreSQL leases.
    package static let shared = DeadlineTicker(resolution: .milliseconds(50))

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        var isTicking = false
    }

    /// How an operation under a limit stands: the operation's task ends it, the ticking task expires it, whichever
    /// comes first.
    package enum Phase: Sendable, Equatable {
        case running
        case ended
        case expired

        /// Marks the operation ended, unless its limit passed first.
        package mutating func end() {
            if self == .running { self = .ended }
        }

        /// Marks the limit passed unless the operation has ended; whether it did.
        package mutating func expire() -> Bool {
            guard self == .running else { return false }
            self = .expired
            return true
        }
    }

    /// How often past-due operations are looked for.
    package let resolution: Duration
    private let state = NIOLockedValueBox(State())

    package init(resolution: Duration) {
        self.resolution = resolution
    }

    /// Operations waiting for their result now.
    package var pending: Int {
        self.state.withLockedValue { $0.entries.count }
    }

    /// Runs `operation` with a time limit: its result, or `nil` when `limit` passed first (the operation is then
    /// cancelled, and waited for; what it threw or returned is dropped). Cancelling the calling task cancels the
    /// operation.
    package func run<T: Sendable>(
        limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let phase = NIOLockedValueBox(Phase.running)
        let task = Task {
            // Ended is judged when the operation ends, not when its caller next runs: on a busy pool the caller
            // may resume after the deadline, and an answer that was in time must not be dropped.
            defer { phase.withLockedValue { $0.end() } }
            return try await operation()
        }
        let id = self.register(limit: limit) {
            if phase.withLockedValue({ $0.expire() }) { task.cancel() }
        }
        defer { self.unregister(id) }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        // Past the limit the answer is `nil`, whatever the cancelled operation threw or returned.
        if phase.withLockedValue({ $0 }) == .expired { return nil }
        return try result.get()
    }

    /// Calls `expire` once `limit` has passed (to within ``resolution``), unless ``unregister(_:)`` comes first;
    /// for callers whose limit ends before their operation does (``run(limit:_:)`` covers the whole operation).
    /// - Returns: The ticket ``unregister(_:)`` takes.
    package func register(limit: Duration, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = ContinuousClock.now + limit
        let (id, startsTicking) = self.state.withLockedValue { state -> (UInt64, Bool) in
            state.nextID &+= 1
            state.entries[state.nextID] = Entry(deadline: deadline, expire: expire)
            let starts = !state.isTicking
            state.isTicking = true
            return (state.nextID, starts)
        }
        if startsTicking {
            Task.detached { await self.tick() }
        }
        return id
    }

    /// Forgets a ticket: its `expire` is not called (a ticket already expired or forgotten is ignored).
    package func unregister(_ id: UInt64) {
        self.state.withLockedValue { _ = $0.entries.removeValue(forKey: id) }
    }

    /// Wakes every `resolution` while operations are pending; stops when none is.
    private func tick() async {
        while true {
            try? await Task.sleep(for: self.resolution)
            let now = ContinuousClock.now
            let due = self.state.withLockedValue { state -> [Entry]? in
                if state.entries.isEmpty {
                    state.isTicking = false
                    return nil
                }
                let due = state.entries.filter { $0.value.deadline <= now }
                for id in due.keys { state.entries.removeValue(forKey: id) }
                return Array(due.values)
            }
            guard let due else { return }
            for entry in due { entry.expire() }
        }
    }
}
