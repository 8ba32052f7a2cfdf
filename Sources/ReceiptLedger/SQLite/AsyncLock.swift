import NIOConcurrencyHelpers

/// A first-come, first-served lock for async code: SQLite has one writer connection, and a write transaction spans
/// several statements (several suspension points), so writers take turns here rather than on a thread.
final class AsyncLock: Sendable {
    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }

    private let state = NIOLockedValueBox(State())

    func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await self.lock()
        defer { self.unlock() }
        return try await body()
    }

    private func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = self.state.withLockedValue { state -> Bool in
                if state.locked {
                    state.waiters.append(continuation)
                    return false
                }
                state.locked = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func unlock() {
        let next = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.locked = false
                state.waiters.removeAll(keepingCapacity: true)
                state.head = 0
                return nil
            }
            let next = state.waiters[state.head]
            state.head += 1
            return next   // the lock passes to the next waiter without being released
        }
        next?.resume()
    }
}
