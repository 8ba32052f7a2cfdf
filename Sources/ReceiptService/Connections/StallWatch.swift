import NIOConcurrencyHelpers
import _ReceiptKitShared

/// One body's stall clock: when its last chunk came and when it began borrowing from the reserve, checked by a
/// single entry in the process's `DeadlineTicker` that moves with the chunks — not a timer or a task per chunk
/// (a chunked body of one-byte chunks is hundreds of thousands of them).
///
/// Past its deadline (``deadline(lastChunk:borrowedSince:stallTimeout:borrowWindow:)``) the reading task is
/// cancelled and the watch says so (``stalled``).
final class StallWatch: Sendable {
    private struct State {
        var lastChunk: ContinuousClock.Instant
        var borrowedSince: ContinuousClock.Instant?
        var stalled = false
        var finished = false
        var ticket: UInt64?
        var reading: Task<BodyIntake.End, any Error>?
    }

    let stallTimeout: Duration
    let borrowWindow: Duration
    private let state: NIOLockedValueBox<State>

    init(stallTimeout: Duration, borrowWindow: Duration, startingAt start: ContinuousClock.Instant) {
        self.stallTimeout = stallTimeout
        self.borrowWindow = borrowWindow
        self.state = NIOLockedValueBox(State(lastChunk: start))
    }

    /// When a body whose last chunk came at `lastChunk`, borrowing since `borrowedSince`, has stalled: a pause
    /// longer than the stall timeout, or a borrow longer than the borrow window (never longer than the stall
    /// timeout).
    static func deadline(
        lastChunk: ContinuousClock.Instant, borrowedSince: ContinuousClock.Instant?, stallTimeout: Duration,
        borrowWindow: Duration
    ) -> ContinuousClock.Instant {
        let pause = lastChunk + stallTimeout
        guard let borrowedSince else { return pause }
        return min(pause, borrowedSince + min(stallTimeout, borrowWindow))
    }

    /// Whether the body stalled (its reading was cancelled for it).
    var stalled: Bool { self.state.withLockedValue { $0.stalled } }

    /// A chunk came at `now`; `borrowing` when it left the body borrowing from the reserve. A pause only moves the
    /// deadline later (the entry in the ticker, when it comes, looks again); a borrow's start moves it earlier, and
    /// the entry with it.
    func chunkArrived(at now: ContinuousClock.Instant, borrowing: Bool) {
        let earlier = self.state.withLockedValue { state -> UInt64?? in
            state.lastChunk = now
            guard borrowing, state.borrowedSince == nil else { return nil }
            state.borrowedSince = now
            defer { state.ticket = nil }
            return .some(state.ticket)
        }
        guard let earlier else { return }
        if let ticket = earlier { DeadlineTicker.shared.unregister(ticket) }
        self.check(now: now)
    }

    /// Starts watching `reading`, as of `now`.
    func watch(_ reading: Task<BodyIntake.End, any Error>, now: ContinuousClock.Instant) {
        self.state.withLockedValue { $0.reading = reading }
        self.check(now: now)
    }

    /// Stops watching (the body ended, however).
    func finish() {
        let ticket = self.state.withLockedValue { state -> UInt64? in
            state.finished = true
            state.reading = nil
            return state.ticket
        }
        if let ticket { DeadlineTicker.shared.unregister(ticket) }
    }

    /// Past the deadline: stalled, the reading cancelled. Else: checked again at the deadline.
    private func check(now: ContinuousClock.Instant) {
        let action = self.state.withLockedValue { state -> (cancel: Task<BodyIntake.End, any Error>?, wait: Duration?) in
            guard !state.finished else { return (nil, nil) }
            let deadline = Self.deadline(
                lastChunk: state.lastChunk, borrowedSince: state.borrowedSince, stallTimeout: self.stallTimeout,
                borrowWindow: self.borrowWindow)
            guard deadline > now else {
                state.stalled = true
                state.finished = true
                return (state.reading, nil)
            }
            return (nil, deadline - now)
        }
        if let reading = action.cancel { reading.cancel() }
        guard let wait = action.wait else { return }
        let ticket = DeadlineTicker.shared.register(limit: wait) { [self] in self.check(now: .now) }
        let stale = self.state.withLockedValue { state -> Bool in
            state.ticket = ticket
            return state.finished
        }
        if stale { DeadlineTicker.shared.unregister(ticket) }
    }
}
