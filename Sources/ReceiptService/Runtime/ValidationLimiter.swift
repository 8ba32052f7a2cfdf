import NIOConcurrencyHelpers

/// Bounds how many validations run at once, queueing the rest in arrival order, and runs each on Swift's global
/// concurrent executor — never on the event-loop thread that received the request.
///
/// A waiter whose task is cancelled (its request timed out) leaves the queue at once.
final class ValidationLimiter: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: NIOLockedValueBox<State>
    let permits: Int

    init(permits: Int) {
        self.permits = permits
        self.state = NIOLockedValueBox(State(available: permits))
    }

    /// Validations running now.
    var running: Int { self.permits - self.state.withLockedValue { $0.available } }

    /// Runs `body` when a permit is free; `nil` when the task was cancelled before one was.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T? {
        guard await self.acquire() else { return nil }
        defer { self.release() }
        #if canImport(Darwin)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return await withTaskExecutorPreference(globalConcurrentExecutor) { await body() }
        }
        return await body()
        #else
        return await withTaskExecutorPreference(globalConcurrentExecutor) { await body() }
        #endif
    }

    private func acquire() async -> Bool {
        let id = self.state.withLockedValue { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted = self.state.withLockedValue { state -> Bool? in
                    if Task.isCancelled { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter = self.state.withLockedValue { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    private func release() {
        let next = self.state.withLockedValue { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()   // the permit passes straight to the next waiter
        }
        next?.continuation.resume(returning: true)
    }
}
