public import AppStoreJWS
import NIOConcurrencyHelpers

/// An OCSP transport that holds every request until ``release()``, for tests of what happens while verifications
/// wait for a responder: then passes each to `responder`, or, without one, fails it as unreachable.
public final class HeldOCSPTransport: OCSPTransport, Sendable {
    /// How a held request fails when there is no responder behind.
    public struct Unreachable: Error, Sendable {}

    private struct State {
        var released = false
        var requests = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var firstRequest: [CheckedContinuation<Void, Never>] = []
    }

    private let responder: (any OCSPTransport)?
    private let state = NIOLockedValueBox(State())

    /// - Parameter responder: What answers once released; `nil` fails every request.
    public init(passingTo responder: (any OCSPTransport)? = nil) {
        self.responder = responder
    }

    /// Requests received so far.
    public var requests: Int { self.state.withLockedValue { $0.requests } }

    public func response(to request: [UInt8], from uri: String) async throws -> [UInt8] {
        await withCheckedContinuation { continuation in
            let (passes, waiters) = self.state.withLockedValue { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.requests += 1
                defer { state.firstRequest = [] }
                if !state.released { state.held.append(continuation) }
                return (state.released, state.firstRequest)
            }
            for waiter in waiters { waiter.resume() }
            if passes { continuation.resume() }
        }
        guard let responder = self.responder else { throw Unreachable() }
        return try await responder.response(to: request, from: uri)
    }

    /// Returns once a request has come.
    public func waitForFirstRequest() async {
        await withCheckedContinuation { continuation in
            let asked = self.state.withLockedValue { state -> Bool in
                if state.requests > 0 { return true }
                state.firstRequest.append(continuation)
                return false
            }
            if asked { continuation.resume() }
        }
    }

    /// Lets every held request, and every later one, go on.
    public func release() {
        let held = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.held = [] }
            return state.held
        }
        for waiter in held { waiter.resume() }
    }
}
