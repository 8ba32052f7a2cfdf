import NIOConcurrencyHelpers

/// Wakes the forwarder's loops when this instance has written outbox entries, so that a notification is sent on at
/// once rather than at the next poll (other instances sharing the ledger find it at theirs).
final class OutboxSignal: Sendable {
    private struct State {
        /// A poke that found no waiter: the next wait returns at once.
        var poked = false
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    init() {}

    /// Wakes every waiter; with none waiting, the next wait returns at once.
    func poke() {
        let waiters = self.state.withLockedValue { state in
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            state.poked = waiters.isEmpty
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when poked (or poked since the last wait returned), after `limit`, or when the task is cancelled.
    func wait(atMost limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.nextPoke() }
            group.addTask { try? await Task.sleep(for: limit) }
            _ = await group.next()
            group.cancelAll()
        }
    }

    private func nextPoke() async {
        let id = self.state.withLockedValue { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = self.state.withLockedValue { state -> Bool in
                    if state.poked {
                        state.poked = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            // This waiter only: the others keep waiting, and a poke meant for them stays theirs.
            let waiter = self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
