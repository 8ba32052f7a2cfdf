public import AppStoreServerAPI
import NIOConcurrencyHelpers

/// A transport that answers from a script, in order, and records every request: the client's retries, paging and
/// headers, and the service's App Store Server API refresh, are checked against it without a network.
public final class ScriptedTransport: HTTPTransport {
    public enum Step: Sendable {
        case answer(HTTPTransportResponse)
        case fail(HTTPTransportFailure.Kind)
        /// Waits for `release` before answering (for the concurrency bound), or fails as cancelled when the caller is.
        case hold(HTTPTransportResponse)
        /// Fails after `seconds` on the clock given to the transport (a connection that times out slowly).
        case failAfter(HTTPTransportFailure.Kind, seconds: Double)
    }

    private struct State {
        var steps: [Step]
        public var requests: [HTTPTransportRequest] = []
        public var timeouts: [Duration] = []
        public var inFlight = 0
        public var mostInFlight = 0
        var released = false
    }

    private let state: NIOLockedValueBox<State>
    private let clock: PinnedRuntime?

    /// - Parameter clock: The clock `failAfter` advances.
    public init(_ steps: [Step], clock: PinnedRuntime? = nil) {
        self.state = NIOLockedValueBox(State(steps: steps))
        self.clock = clock
    }

    public var requests: [HTTPTransportRequest] { self.state.withLockedValue { $0.requests } }
    /// The timeout the client gave each request.
    public var timeouts: [Duration] { self.state.withLockedValue { $0.timeouts } }
    public var mostInFlight: Int { self.state.withLockedValue { $0.mostInFlight } }
    public var inFlight: Int { self.state.withLockedValue { $0.inFlight } }
    public func release() { self.state.withLockedValue { $0.released = true } }

    public func send(
        _ request: HTTPTransportRequest,
        timeout: Duration,
        maximumResponseSize: Int
    ) async throws(HTTPTransportFailure)
        -> HTTPTransportResponse
    {
        let step = self.state.withLockedValue { state -> Step? in
            state.requests.append(request)
            state.timeouts.append(timeout)
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            return state.steps.isEmpty ? nil : state.steps.removeFirst()
        }
        defer { self.state.withLockedValue { $0.inFlight -= 1 } }
        switch step {
        case .answer(let response)?:
            guard response.body.count <= maximumResponseSize else {
                throw HTTPTransportFailure(.responseTooLarge, "over \(maximumResponseSize)")
            }
            return response
        case .fail(let kind)?:
            throw HTTPTransportFailure(kind, "scripted \(kind.rawValue)")
        case .failAfter(let kind, let seconds)?:
            self.clock?.advance(seconds)
            throw HTTPTransportFailure(kind, "scripted \(kind.rawValue) after \(seconds) s")
        case .hold(let response)?:
            while !self.state.withLockedValue({ $0.released }) {
                // As a real transport: the caller's cancellation ends the exchange.
                if Task.isCancelled { throw HTTPTransportFailure(.cancelled, "cancelled while held") }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return response
        case nil:
            throw HTTPTransportFailure(.connection, "the script is exhausted")
        }
    }

    public static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> Step {
        .answer(HTTPTransportResponse(status: status, headers: headers, body: Array(text.utf8)))
    }
}
