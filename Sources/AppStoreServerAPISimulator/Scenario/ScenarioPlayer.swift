public import AppStoreServerAPI
public import AppStoreJWS
public import ReceiptKitTesting
public import struct Foundation.Date

/// Plays a ``ScenarioTimeline`` as the App Store would: each event's transactions and renewal info reach a
/// ``SimulatedAppStore`` at the event's moment (so the simulator's Server API answers histories, statuses and
/// refunds as the timeline stands), and its notifications are signed and POSTed to a backend as Apple sends them —
/// `{"signedPayload": …}`, in time order scaled by ``ScenarioPlayback/speed``, shuffled, duplicated or dropped as
/// the ``ScenarioPlan`` says. Every send, dropped ones included, is added to the store's notification history
/// with its `sendAttemptResult`, so a backend's backfill finds what it missed.
///
/// The clock is an input: ``clock`` maps the real clock to the timeline's, `wallClock` reads the real one and
/// `sleep` waits; tests pass their own.
public struct ScenarioPlayer: Sendable {
    public let timeline: ScenarioTimeline
    public let store: SimulatedAppStore
    public let authority: JWSTestAuthority
    public let playback: ScenarioPlayback
    public let plan: ScenarioPlan
    /// Timeline time from the real clock; give the simulator `{ player.clock.simulated(at: Date()) }`.
    public let clock: ScenarioClock

    /// Prepares a play that begins at the real moment `launch`, and adds the scenario's apps to `store`.
    public init(
        timeline: ScenarioTimeline, store: SimulatedAppStore, authority: JWSTestAuthority,
        playback: ScenarioPlayback = ScenarioPlayback(), launch: Date
    ) {
        self.timeline = timeline
        self.store = store
        self.authority = authority
        self.playback = playback
        self.plan = ScenarioPlan(timeline, playback)
        let first = timeline.steps.first?.date ?? timeline.start
        self.clock = ScenarioClock(timelineStart: first, launch: launch, speed: max(playback.speed, 1e-9))
        for app in timeline.scenario.apps {
            store.addApp(bundleIdentifier: app.bundleIdentifier, appAppleID: app.appAppleID)
        }
    }

    /// Each notification's payload (its transaction and renewal info signed within) and request body,
    /// `{"signedPayload":"<JWS>"}`, in the order of `timeline.notifications`.
    /// - Throws: What signing throws (a certificate that cannot be serialized).
    public func signedNotifications() throws -> [(payload: [String: JSONValue], body: [UInt8])] {
        let environment = self.timeline.scenario.environment.rawValue
        let leaf = self.authority.leaf, chain = self.authority.chain
        let sign: ([String: JSONValue]) throws -> String = { try JWSMinter.sign($0, signer: leaf, chain: chain) }
        return try self.timeline.notifications.map { notification in
            let app = self.timeline.scenario.app(notification.bundleIdentifier)
            let payload = try notification.payload(appAppleID: app?.appAppleID, environment: environment, sign: sign)
            return (payload, JSONValue.object(["signedPayload": .string(try sign(payload))]).serialized)
        }
    }

    /// Plays the whole plan, POSTing to `url` through `transport`, and reports every send.
    /// - Parameters:
    ///   - url: The backend's notification URL (`http://127.0.0.1:8080/notifications/v2`).
    ///   - transport: Sends each POST (AsyncHTTPClient's in the CLI, a recorder in tests).
    ///   - wallClock: The real clock.
    ///   - sleep: Waits for a duration; throws when the play is cancelled.
    ///   - progress: Called after each send, in order.
    /// - Throws: `CancellationError` (or what `sleep` throws) when cancelled; ``SimulatorError`` when a step cannot
    ///   be stored; what signing throws.
    public func play(
        notifying url: String,
        transport: any HTTPTransport,
        wallClock: @Sendable () -> Date,
        sleep: @Sendable (Duration) async throws -> Void,
        progress: (ScenarioSend) -> Void = { _ in }
    ) async throws -> ScenarioPlayReport {
        let notifications = self.timeline.notifications
        let signed = try self.signedNotifications()
        let total = self.plan.sends
        var sends: [ScenarioSend] = []
        sends.reserveCapacity(total)
        for (date, action) in self.plan.actions {
            let wait = self.clock.wall(for: date).timeIntervalSince(wallClock())
            if wait > 0 { try await sleep(.milliseconds(Int64((wait * 1000).rounded(.up)))) }
            try Task.checkCancellation()
            switch action {
            case .apply(let index):
                let step = self.timeline.steps[index]
                for transaction in step.transactions {
                    try self.store.add(transaction: transaction.fields, customer: transaction.customer)
                }
                for renewal in step.renewalInfo { try self.store.setRenewalInfo(renewal) }
            case .send(let index, let fate):
                let notification = notifications[index]
                var (result, status): (String, Int?) = ("NO_RESPONSE", nil)
                if fate != .dropped {
                    (result, status) = await self.post(signed[index].body, to: url, transport: transport)
                }
                self.store.recordAttempt(SimulatedSendAttempt(date: date, result: result), fields: signed[index].payload)
                let send = ScenarioSend(
                    notification: notification, fate: fate, result: result, status: status, attemptDate: date,
                    position: sends.count + 1, total: total)
                sends.append(send)
                progress(send)
            }
        }
        return ScenarioPlayReport(sends: sends)
    }

    /// One POST, and Apple's `sendAttemptResult` for how it went.
    func post(_ body: [UInt8], to url: String, transport: any HTTPTransport) async -> (String, Int?) {
        let request = HTTPTransportRequest(
            method: "POST", url: url, headers: [("Content-Type", "application/json")], body: body)
        do {
            let response = try await transport.send(request, timeout: self.playback.timeout, maximumResponseSize: 64 << 10)
            return ((200..<300).contains(response.status) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE", response.status)
        } catch {
            switch error.kind {
            case .timeout: return ("TIMED_OUT", nil)
            case .connection: return ("NO_RESPONSE", nil)
            case .responseTooLarge: return ("INVALID_RESPONSE", error.status)
            default: return ("OTHER", error.status)
            }
        }
    }
}
