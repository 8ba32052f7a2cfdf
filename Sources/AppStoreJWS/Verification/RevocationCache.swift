import Foundation
import NIOConcurrencyHelpers
import X509
import _ReceiptKitShared

/// The revocation verdicts of certificate paths, kept while the OCSP answers behind them hold, and the fetches
/// under way, shared.
///
/// - A path's verdict (`good` or `revoked`) is kept until the earliest `nextUpdate` of the responses it rests on
///   (and used only from their latest `thisUpdate`, less the 75 minutes swift-certificates' policy allows): a responder signs an answer for that long, so asking again
///   sooner learns nothing (RFC 6960 §2.4; RFC 5019 §6 lets clients cache to `nextUpdate`). A response without
///   `nextUpdate` is not kept, nor is any other outcome — an unreachable responder is asked again next time.
/// - One fetch per path at a time: verifications of the same path while it runs wait for its verdict.
/// - At most ``maximumConcurrentFetches`` fetches of different paths run at once; the rest queue.
/// - At most ``capacity`` verdicts are kept; past it, the oldest go first.
///
/// A ``JWSRevocationCheck`` makes one, shared by its copies: give a server's verifiers the same check.
public final class RevocationCache: Sendable {
    struct Fetched: Sendable {
        let outcome: RevocationChecker.Outcome
        let lifetime: OCSPResponseLifetime?
    }

    private struct Kept: Sendable {
        let outcome: RevocationChecker.Outcome
        let lifetime: OCSPResponseLifetime
    }

    private struct State {
        var kept: CostBoundedTable<[Certificate], Kept>
        var inFlight: [[Certificate]: RevocationFlight] = [:]
        var fetches = 0
    }

    /// The most verdicts kept.
    public let capacity: Int
    /// The most fetches of different paths under way at once.
    public let maximumConcurrentFetches: Int
    private let state: NIOLockedValueBox<State>
    private let fetchPermits: AsyncSemaphore

    /// - Parameters:
    ///   - capacity: The most verdicts kept (default 4,096; 0 keeps none, fetches are still shared).
    ///   - maximumConcurrentFetches: The most fetches of different paths under way at once (default 8).
    public init(capacity: Int = 4096, maximumConcurrentFetches: Int = 8) {
        self.capacity = max(0, capacity)
        self.maximumConcurrentFetches = max(1, maximumConcurrentFetches)
        self.state = NIOLockedValueBox(State(kept: CostBoundedTable(limit: self.capacity)))
        self.fetchPermits = AsyncSemaphore(permits: self.maximumConcurrentFetches)
    }

    /// Verdicts kept now.
    public var count: Int { self.state.withLockedValue { $0.kept.count } }

    /// Fetches made so far (each one verification's questions to the responders of one path).
    public var fetches: Int { self.state.withLockedValue { $0.fetches } }

    /// How far apart two verifications' times may be for one to take the other's fetch (a library caller may verify
    /// at a time long past; the service's are all its clock's now).
    static let joinableSpan: TimeInterval = 60

    /// The verdict on `path` at `now`: kept, or joined from a fetch under way (at a time near `now`), or fetched
    /// (`fetch`) — each wait inside `scope`. A verification whose task is cancelled gets `unavailable` at once.
    func outcome(
        for path: [Certificate],
        now: Date,
        scope: (any RevocationWaitScope)?,
        fetch: @escaping @Sendable () async -> Fetched
    ) async -> RevocationChecker.Outcome {
        if Task.isCancelled { return .unavailable }
        enum Step {
            case kept(RevocationChecker.Outcome)
            case wait(RevocationFlight)
        }
        let step = self.state.withLockedValue { state -> Step in
            if let kept = state.kept[path], kept.lifetime.covers(now) { return .kept(kept.outcome) }
            if let running = state.inFlight[path], abs(running.now.timeIntervalSince(now)) <= Self.joinableSpan {
                return .wait(running)
            }
            state.fetches += 1
            let flight = RevocationFlight(now: now)
            // A fetch for a time far from the one under way is not shared (and not registered: that one stays).
            if state.inFlight[path] == nil { state.inFlight[path] = flight }
            Task {
                let fetched = await self.fetchPermits.withPermit { await fetch() } ?? Fetched(outcome: .unavailable, lifetime: nil)
                self.finish(path, flight, fetched)
            }
            return .wait(flight)
        }
        switch step {
        case .kept(let outcome):
            return outcome
        case .wait(let flight):
            let wait: @Sendable () async -> Fetched = { await flight.wait() }
            guard let scope else { return await wait().outcome }
            return await scope.waiting(wait).outcome
        }
    }

    private func finish(_ path: [Certificate], _ flight: RevocationFlight, _ fetched: Fetched) {
        self.state.withLockedValue { state in
            if state.inFlight[path] === flight { state.inFlight[path] = nil }
            guard let lifetime = fetched.lifetime, fetched.outcome == .good || fetched.outcome == .revoked else { return }
            state.kept.insert(Kept(outcome: fetched.outcome, lifetime: lifetime), cost: 1, for: path)
        }
        flight.finish(fetched)
    }
}
