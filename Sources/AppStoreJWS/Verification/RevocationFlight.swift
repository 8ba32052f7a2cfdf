import Foundation
import NIOConcurrencyHelpers

/// One fetch of a path's revocation verdict under way (``RevocationCache``), and the verifications waiting for it.
/// A waiter whose task is cancelled (its request timed out) stops waiting at once with `unavailable`; the fetch
/// goes on for the others.
final class RevocationFlight: Sendable {
    private struct State {
        var fetched: RevocationCache.Fetched?
        var waiters: [UInt64: CheckedContinuation<RevocationCache.Fetched, Never>] = [:]
        var nextID: UInt64 = 0
    }

    /// The verification time the fetch checks at: another verification joins only near it.
    let now: Date
    private let state = NIOLockedValueBox(State())

    init(now: Date) {
        self.now = now
    }

    /// What the fetch found, once it has; `unavailable` for a waiter cancelled first.
    func wait() async -> RevocationCache.Fetched {
        let id = self.state.withLockedValue { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<RevocationCache.Fetched, Never>) in
                let ready = self.state.withLockedValue { state -> RevocationCache.Fetched? in
                    if let fetched = state.fetched { return fetched }
                    if Task.isCancelled { return RevocationCache.Fetched(outcome: .unavailable, lifetime: nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: RevocationCache.Fetched(outcome: .unavailable, lifetime: nil))
        }
    }

    /// The fetch ended: every waiter, and every later one, gets `fetched`.
    func finish(_ fetched: RevocationCache.Fetched) {
        let waiters = self.state.withLockedValue { state -> [CheckedContinuation<RevocationCache.Fetched, Never>] in
            state.fetched = fetched
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: fetched) }
    }
}
