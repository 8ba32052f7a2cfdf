import NIOConcurrencyHelpers

/// One refresh in flight, shared by every request that waits for it: it ends once, with whether the ledger was
/// refreshed, and resumes all its waiters. A waiter whose task is cancelled stops waiting (the refresh goes on).
final class RefreshFlight: Sendable {
    private struct State {
        var outcome: Bool?
        var waiters: [UInt64: CheckedContinuation<Bool?, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// A waiter stopped waiting before the end: later requests answer from the ledger at once.
        var isBackground = false
    }

    private let state = NIOLockedValueBox(State())

    /// Whether a request already stopped waiting for it (the refresh runs on in the background).
    var isBackground: Bool {
        self.state.withLockedValue { $0.isBackground }
    }

    /// Whether it has ended.
    var hasEnded: Bool {
        self.state.withLockedValue { $0.outcome != nil }
    }

    /// Whether it has ended with the ledger refreshed.
    var hasRefreshed: Bool {
        self.state.withLockedValue { $0.outcome == true }
    }

    /// Marks it as running in the background.
    func moveToBackground() {
        self.state.withLockedValue { $0.isBackground = true }
    }

    /// Ends it with `refreshed` and resumes its waiters; a second end is ignored.
    func finish(_ refreshed: Bool) {
        let waiters = self.state.withLockedValue { state -> [CheckedContinuation<Bool?, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = refreshed
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: refreshed) }
    }

    /// Waits for the end: whether the ledger was refreshed, or `nil` when the calling task was cancelled first.
    func outcome() async -> Bool? {
        let id = self.state.withLockedValue { state -> UInt64 in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
                // Ended already, or cancelled before the waiter could be registered: answer at once.
                let immediate = self.state.withLockedValue { state -> Bool?? in
                    if let outcome = state.outcome { return .some(outcome) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
