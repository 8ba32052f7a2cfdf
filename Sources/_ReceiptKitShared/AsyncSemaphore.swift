import class Foundation.NSLock

/// A counting semaphore for async code: at most `permits` holders at once, waiters served first come, first
/// served; a waiter whose task is cancelled leaves the queue at once. The ledger's SQLite writer takes turns on one
/// with a single permit (a write transaction spans several suspension points); the service bounds concurrent
/// validations with another.
package final class AsyncSemaphore: @unchecked Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let lock = NSLock()
    private var available: Int
    private var waiters: [Waiter] = []
    private var nextID: UInt64 = 0
    /// The number of permits.
    package let permits: Int

    package init(permits: Int) {
        self.permits = max(1, permits)
        self.available = self.permits
    }

    /// Permits held now.
    package var held: Int {
        self.locked { self.permits - self.available }
    }

    /// Runs `body` holding a permit; `nil` when the task was cancelled before one was free.
    package func withPermit<T: Sendable>(_ body: () async throws -> T) async rethrows -> T? {
        guard await self.acquire() else { return nil }
        defer { self.release() }
        return try await body()
    }

    private func acquire() async -> Bool {
        let id = self.locked { () -> UInt64 in
            self.nextID &+= 1
            return self.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted = self.locked { () -> Bool? in
                    if Task.isCancelled { return false }
                    if self.available > 0 {
                        self.available -= 1
                        return true
                    }
                    self.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let waiter = self.locked { () -> Waiter? in
                guard let index = self.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return self.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    private func release() {
        let next = self.locked { () -> Waiter? in
            guard !self.waiters.isEmpty else {
                self.available += 1
                return nil
            }
            return self.waiters.removeFirst()  // the permit passes straight to the next waiter
        }
        next?.continuation.resume(returning: true)
    }

    private func locked<T>(_ body: () -> T) -> T {
        self.lock.lock()
        defer { self.lock.unlock() }
        return body()
    }
}
