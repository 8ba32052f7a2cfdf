@testable import AppStoreServerAPI
import AppStorePKI
import Foundation
import NIOConcurrencyHelpers

/// A transport that answers from a script, in order, and records every request: the client's retries, paging and
/// headers are checked against it without a network.
final class ScriptedTransport: HTTPTransport {
    enum Step: Sendable {
        case answer(HTTPTransportResponse)
        case fail(HTTPTransportFailure.Kind)
        /// Waits for `release` before answering (for the concurrency bound).
        case hold(HTTPTransportResponse)
        /// Fails after `seconds` on the clock given to the transport (a connection that times out slowly).
        case failAfter(HTTPTransportFailure.Kind, seconds: Double)
    }

    private struct State {
        var steps: [Step]
        var requests: [HTTPTransportRequest] = []
        var timeouts: [Duration] = []
        var inFlight = 0
        var mostInFlight = 0
        var released = false
    }

    private let state: NIOLockedValueBox<State>
    private let clock: PinnedRuntime?

    /// - Parameter clock: The clock `failAfter` advances.
    init(_ steps: [Step], clock: PinnedRuntime? = nil) {
        self.state = NIOLockedValueBox(State(steps: steps))
        self.clock = clock
    }

    var requests: [HTTPTransportRequest] { self.state.withLockedValue { $0.requests } }
    /// The timeout the client gave each request.
    var timeouts: [Duration] { self.state.withLockedValue { $0.timeouts } }
    var mostInFlight: Int { self.state.withLockedValue { $0.mostInFlight } }
    var inFlight: Int { self.state.withLockedValue { $0.inFlight } }
    func release() { self.state.withLockedValue { $0.released = true } }

    func send(
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
                try? await Task.sleep(for: .milliseconds(5))
            }
            return response
        case nil:
            throw HTTPTransportFailure(.connection, "the script is exhausted")
        }
    }

    static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> Step {
        .answer(HTTPTransportResponse(status: status, headers: headers, body: Array(text.utf8)))
    }
}

/// A pinned clock and a sleep that only records (and, when asked, moves the clock on by what it slept).
final class PinnedRuntime: Sendable {
    private let slept = NIOLockedValueBox<[Duration]>([])
    private let time: NIOLockedValueBox<Date>
    private let reads = NIOLockedValueBox(0)
    let unit: Double
    let sleepAdvancesClock: Bool

    init(now: Date = Date(timeIntervalSince1970: 1_750_000_000), unit: Double = 0.5, sleepAdvancesClock: Bool = false) {
        self.time = NIOLockedValueBox(now)
        self.unit = unit
        self.sleepAdvancesClock = sleepAdvancesClock
    }

    var sleeps: [Duration] { self.slept.withLockedValue { $0 } }
    var now: Date { self.time.withLockedValue { $0 } }
    /// How many times the client read the clock (tests wait on it to know a request has started).
    var clockReads: Int { self.reads.withLockedValue { $0 } }
    func advance(_ seconds: Double) { self.time.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }

    var runtime: APIClientRuntime {
        APIClientRuntime(
            now: {
                self.reads.withLockedValue { $0 += 1 }
                return self.now
            },
            sleep: { duration in
                self.slept.withLockedValue { $0.append(duration) }
                if self.sleepAdvancesClock {
                    let (seconds, attoseconds) = duration.components
                    self.advance(Double(seconds) + Double(attoseconds) / 1e18)
                }
            },
            random: { self.unit }
        )
    }
}
