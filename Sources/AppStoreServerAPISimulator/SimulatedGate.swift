import NIOConcurrencyHelpers

/// Holds the requests a ``SimulatedFault/hold(_:)`` fault meets until the test opens it: Apple still answering,
/// for as long as the test needs, without a wall-clock delay that a loaded machine could outlast.
///
/// A gate opens by itself after its `limit`, so that a test which fails before opening it cannot hang; the held
/// requests are then answered as usual.
public final class SimulatedGate: Sendable, Hashable {
    private struct State {
        var isOpen = false
        var held: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
        /// Requests that reached the gate, held or not.
        var arrivals = 0
    }

    private let state = NIOLockedValueBox(State())

    /// The longest a request is held (a minute by default).
    public let limit: Duration

    public init(limit: Duration = .seconds(60)) {
        self.limit = limit
    }

    /// How many requests are held now.
    public var heldCount: Int {
        self.state.withLockedValue { $0.held.count }
    }

    /// How many requests reached the gate since it was made, held or let through.
    public var arrivals: Int {
        self.state.withLockedValue { $0.arrivals }
    }

    /// Whether it is open.
    public var isOpen: Bool {
        self.state.withLockedValue { $0.isOpen }
    }

    /// Lets the held requests go on, and every later one through.
    public func open() {
        let held = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for continuation in held { continuation.resume() }
    }

    /// Waits until `count` requests have reached the gate, polling every 10 ms; whether they did within `limit`.
    public func waitForArrivals(_ count: Int, limit: Duration = .seconds(30)) async -> Bool {
        let end = ContinuousClock.now + limit
        while self.arrivals < count {
            guard ContinuousClock.now < end, (try? await Task.sleep(for: .milliseconds(10))) != nil else {
                return false
            }
        }
        return true
    }

    /// Holds the calling request until ``open()``, its ``limit``, or its task's cancellation.
    func pass() async {
        let id = self.state.withLockedValue { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [limit] in try? await Task.sleep(for: limit) }
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        // Counted as it is held (or let through), so that a test that saw it arrive sees it held.
                        let goesOn = self.state.withLockedValue { state -> Bool in
                            state.arrivals += 1
                            guard !state.isOpen, !Task.isCancelled else { return true }
                            state.held[id] = continuation
                            return false
                        }
                        if goesOn { continuation.resume() }
                    }
                } onCancel: {
                    self.state.withLockedValue { $0.held.removeValue(forKey: id) }?.resume()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    public static func == (lhs: SimulatedGate, rhs: SimulatedGate) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
