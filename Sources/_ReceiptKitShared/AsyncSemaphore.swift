import NIOConcurrencyHelpers

/// A counting semaphore for async code: at most `permits` holders at once, waiters served first come, first
/// served; a waiter whose task is cancelled leaves the queue at once. The ledger's SQLite writer takes turns on one
/// with a single permit (a write transaction spans several suspension points); the service bounds concurrent
/// validations with another.
package final class AsyncSemaphore: Sendable {
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
    /// The number of permits.
    package let permits: Int

    package init(permits: Int) {
        self.permits = max(1, permits)
        self.state = NIOLockedValueBox(State(available: self.permits))
    }

    /// Permits held now.
    package var held: Int {
        self.permits - self.state.withLockedValue { $0.available }
    }

    /// Runs `body` holding a permit; `nil` when the task was cancelled before one was free.
    package func withPermit<T: Sendable>(_ body: () async throws -> T) async rethrows -> T? {
        guard await self.acquire() else { return nil }
        defer { self.release() }
        return try await body()
    }

    /// Runs `body` holding a permit it may set aside while it waits (``Permit/setAside(_:)``); `nil` when the task
    /// was cancelled before one was free.
    package func withReleasablePermit<T: Sendable>(_ body: (Permit) async throws -> T) async rethrows -> T? {
        guard await self.acquire() else { return nil }
        let permit = Permit(self)
        defer { if permit.giveUp() { self.release() } }
        return try await body(permit)
    }

    /// A permit ``withReleasablePermit(_:)`` holds for its body.
    package final class Permit: Sendable {
        private let semaphore: AsyncSemaphore
        private let held = NIOLockedValueBox(true)

        fileprivate init(_ semaphore: AsyncSemaphore) {
            self.semaphore = semaphore
        }

        /// Gives the permit back while `wait` runs (for the network, say: others use the slot meanwhile), then
        /// takes one again, queueing behind the waiters. A task cancelled while it queues goes on without one, and
        /// gives none back at the end. When the permit is set aside already (a concurrent wait of the same body),
        /// `wait` just runs.
        package func setAside<T: Sendable>(_ wait: @Sendable () async -> T) async -> T {
            guard self.giveUp() else { return await wait() }
            self.semaphore.release()
            let result = await wait()
            if await self.semaphore.acquire() { self.held.withLockedValue { $0 = true } }
            return result
        }

        /// Marks the permit not held; whether it was.
        fileprivate func giveUp() -> Bool {
            self.held.withLockedValue { held in
                defer { held = false }
                return held
            }
        }
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
            return state.waiters.removeFirst()  // the permit passes straight to the next waiter
        }
        next?.continuation.resume(returning: true)
    }
}
