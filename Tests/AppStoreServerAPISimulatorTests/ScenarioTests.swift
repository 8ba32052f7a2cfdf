import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import AppStoreServerAPISimulator
import Foundation
import ReceiptKitTesting
import Synchronization
import Testing

/// Scenarios: reading refuses with exact codes, timelines tell each lifecycle with Apple's types, every shipped
/// example meets its own expectations, plans are deterministic, and a player POSTs each notification (dropped,
/// shuffled, duplicated as asked) and records every attempt in the store's history. Time is pinned throughout.
@Suite("Scenarios")
struct ScenarioTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Scenarios")

    static let minimal = """
        {"apps":[{"bundle_id":"com.example.app"}],
         "products":[{"product_id":"pro","type":"auto_renewable","subscription_group":"g","period":"P1M"}],
         "customers":[{"id":"ana"}],
         "events":[{"at":"PT0S","customer":"ana","event":"purchase","product":"pro"},
                   {"at":"P1M","customer":"ana","event":"renew"},
                   {"at":"P1M1D","customer":"ana","event":"auto_renew_off"},
                   {"at":"P2M","customer":"ana","event":"expire"}],
         "expect":[{"customer":"ana","product":"pro","state":"expired"}]}
        """

    static func timeline(_ text: String, seed: UInt64 = 1) throws -> ScenarioTimeline {
        try ScenarioTimeline(SimulationScenario(json: Array(text.utf8)), start: Self.start, seed: seed)
    }

    static func refusal(_ text: String) -> String? {
        do {
            _ = try Self.timeline(text)
            return nil
        } catch let error as ScenarioError {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test("A renewal lifecycle is told with Apple's notification types, in order")
    func lifecycleTypes() throws {
        let timeline = try Self.timeline(Self.minimal)
        let told = timeline.notifications.map { [$0.type, $0.subtype].compactMap(\.self).joined(separator: "/") }
        #expect(told == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"])
        #expect(timeline.notifications.first?.signedDate == Self.start)
        #expect(timeline.unmetExpectations().isEmpty)
        #expect(timeline.outcome(customer: "ana", productID: "pro")?.state == "expired")
        #expect(Set(timeline.notifications.map(\.notificationUUID)).count == 4)
    }

    @Test("Malformed and impossible scenarios are refused with their codes")
    func refusals() {
        #expect(Self.refusal("{") == "scenario_malformed")
        #expect(Self.refusal(Self.minimal.replacingOccurrences(of: "\"P1M\"}]", with: "\"one month\"}]")) == "scenario_invalid_member")
        #expect(Self.refusal(Self.minimal.replacingOccurrences(of: "\"product\":\"pro\"}", with: "\"product\":\"nope\"}")) == "scenario_unknown_name")
        #expect(Self.refusal(Self.minimal.replacingOccurrences(of: "\"customer\":\"ana\",\"event\":\"renew\"", with: "\"customer\":\"ana\",\"event\":\"billing_recovery\"")) == "scenario_impossible_event")
        #expect(Self.refusal(Self.minimal.replacingOccurrences(of: "\"expect\"", with: "\"expectations\"")) == "scenario_invalid_member")
        let upper = Self.minimal.replacingOccurrences(of: "{\"id\":\"ana\"}", with: "{\"id\":\"ana\",\"app_account_token\":\"7E3FB20B-4CDB-47CC-936D-99D65F608138\"}")
        #expect(Self.refusal(upper) == "scenario_invalid_member")
        #expect(Self.refusal(upper.replacingOccurrences(of: "7E3FB20B-4CDB-47CC-936D-99D65F608138", with: "7e3fb20b-4cdb-47cc-936d-99d65f608138")) == nil)
    }

    @Test("An unmet expectation is named")
    func unmet() throws {
        let timeline = try Self.timeline(Self.minimal.replacingOccurrences(of: "\"state\":\"expired\"", with: "\"state\":\"active\""))
        #expect(timeline.unmetExpectations().count == 1)
    }

    @Test("Every shipped example scenario meets its own expectations")
    func examplesMeetExpectations() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
        #expect(files.count >= 2)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: Self.examples.appendingPathComponent(file)))
            // Months differ in length: the examples hold from any start (the end of January, of February, a leap day).
            for start in [Self.start, Date(timeIntervalSince1970: 1_769_817_600), Date(timeIntervalSince1970: 1_772_236_800), Date(timeIntervalSince1970: 1_835_395_200)] {
                let timeline = try ScenarioTimeline(SimulationScenario(json: bytes), start: start, seed: 7)
                #expect(timeline.unmetExpectations().isEmpty, "\(file) from \(start): \(timeline.unmetExpectations())")
                #expect(!timeline.notifications.isEmpty, "\(file)")
            }
        }
    }

    @Test("A plan is a function of its timeline and playback; drops and duplicates follow the rates")
    func planDeterminism() throws {
        let timeline = try Self.timeline(Self.minimal)
        let playback = ScenarioPlayback(shuffle: true, duplicateRate: 0.5, dropRate: 0.5, seed: 42)
        #expect(ScenarioPlan(timeline, playback) == ScenarioPlan(timeline, playback))
        let plain = ScenarioPlan(timeline, ScenarioPlayback())
        #expect(plain.sends == 4 && plain.posts == 4)
        let none = ScenarioPlan(timeline, ScenarioPlayback(dropRate: 1))
        #expect(none.sends == 4 && none.posts == 0)
        let twice = ScenarioPlan(timeline, ScenarioPlayback(duplicateRate: 1))
        #expect(twice.sends == 8 && twice.posts == 8)
        // A send never comes before the step that makes its notification true.
        var applied = Set<Int>()
        let stepOf = timeline.steps.enumerated().flatMap { index, step in step.notifications.map { _ in index } }
        for (_, action) in ScenarioPlan(timeline, playback).actions {
            switch action {
            case .apply(let step): applied.insert(step)
            case .send(let notification, _): #expect(applied.contains(stepOf[notification]))
            }
        }
    }

    @Test("A player POSTs each notification, records every attempt and fills the store")
    func playerPosts() async throws {
        let timeline = try Self.timeline(Self.minimal)
        let store = SimulatedAppStore()
        let player = ScenarioPlayer(
            timeline: timeline, store: store, authority: try JWSTestAuthority(),
            playback: ScenarioPlayback(dropRate: 0, speed: 1e9, seed: 3), launch: Self.start)
        let transport = RecordingTransport()
        let report = try await player.play(
            notifying: "http://127.0.0.1:9/notifications", transport: transport,
            wallClock: { Self.start.addingTimeInterval(1e6) }, sleep: { _ in })
        #expect(report.delivered == 4 && report.dropped == 0 && report.failed == 0)
        let bodies = transport.bodies
        #expect(bodies.count == 4)
        let verifier = JWSVerifier(
            policy: JWSVerificationPolicy(
                anchors: AppStoreTrustAnchors([player.authority.root.certificate]),
                bundleIdentifier: "com.example.app", environment: .sandbox),
            cache: nil)
        var uuids: [String] = []
        for (body, notification) in zip(bodies, timeline.notifications) {
            let object = try #require(try JSONValue(jsonEncoded: body).objectValue)
            let signed = try #require(object["signedPayload"]?.stringValue)
            let result = try await verifier.verifyNotification(signed, now: notification.signedDate)
            #expect(result.isValid, "\(result.notification.failures)")
            uuids.append(try #require(result.notification.payload.fields["notificationUUID"]?.stringValue))
        }
        #expect(uuids == timeline.notifications.map(\.notificationUUID))
        let original = try #require(timeline.notifications.first?.originalTransactionID)
        #expect(store.renewalInfo(originalTransactionID: original) != nil)
    }
}

/// Answers 200 to every request and keeps the bodies.
final class RecordingTransport: HTTPTransport {
    private let received = Mutex<[[UInt8]]>([])
    var bodies: [[UInt8]] { self.received.withLock { $0 } }

    func send(_ request: HTTPTransportRequest, timeout: Duration, maximumResponseSize: Int)
        async throws(HTTPTransportFailure) -> HTTPTransportResponse
    {
        self.received.withLock { $0.append(request.body ?? []) }
        return HTTPTransportResponse(status: 200)
    }
}
