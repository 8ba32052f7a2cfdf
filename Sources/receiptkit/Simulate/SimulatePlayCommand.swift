import AppStorePKI
import AppStoreServerAPI
import AppStoreServerAPISimulator
import ArgumentParser
import Crypto
import Foundation
import ReceiptKitTesting
import UnixSignals
import _ReceiptKitShared

struct SimulatePlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a scenario: POST its signed notifications to --notify, and serve the App Store Server API it implies.",
        discussion: """
            Starts the App Store Server API simulator on 127.0.0.1 (--port; a free one by default), with the \
            scenario's apps and a new In-App Purchase key, then lives the timeline: at each event's moment \
            (scaled by --speed) its transactions and renewal info reach the simulator — so Get Transaction \
            History, Get All Subscription Statuses and Get Refund History answer as the timeline stands — and its \
            notifications are signed and POSTed to --notify as Apple sends them, {"signedPayload": …}, optionally \
            out of order (--shuffle), twice (--duplicate) or never (--drop). Get Notification History lists every \
            send, dropped ones as failed attempts, so a backend's backfill can recover them.
            The timeline is placed so that its last event is now (or from --start, or the scenario's start): \
            every signedDate is in the past. Into --output go the test authority (root.cer is the anchor the \
            backend must trust), the API key (AuthKey_<key id>.p8) and service-settings.json, settings for \
            `receiptkit serve --config` that trust the root and point app_store_server_api at the simulator.
            Once the timeline is over the simulator keeps serving until SIGINT or SIGTERM (--exit-when-done: \
            it stops). Progress goes to standard error, a summary to standard output.
            Exit status: 0 played (a send that failed is reported, not an error); 64 a usage error, or the port \
            cannot be bound; 65 the scenario is malformed or an event cannot happen; 66 it cannot be read; 73 \
            --output cannot be written.
            """
    )

    @Option(help: "The scenario file (JSON; Examples/Scenarios/scenario.schema.json).")
    var scenario: String

    @Option(help: "The backend's notification URL, e.g. http://127.0.0.1:8080/notifications/v2.")
    var notify: String

    @Option(help: "The simulator's port on 127.0.0.1 (0: a free one).")
    var port = 0

    @Flag(help: "Send the notifications out of order (each delayed by a random number of the timeline's moments).")
    var shuffle = false

    @Option(help: "The share of notifications sent a second time, later (0 to 1).")
    var duplicate = 0.0

    @Option(help: "The share of notifications never delivered, listed by Get Notification History as failed (0 to 1).")
    var drop = 0.0

    @Option(help: "Timeline seconds per real second: the default plays a day a second; 1 plays in real time.")
    var speed = 86_400.0

    @Option(help: "Chooses what is shuffled, duplicated and dropped, and the UUIDs and identifiers (default: random, printed).")
    var seed: UInt64?

    @Option(help: "The moment of P0D (RFC 3339); default: the scenario's start, else so that the last event is now.")
    var start: String?

    @Option(help: "A folder written by `receiptkit mint jws-ca` to sign with (default: a new authority in --output).")
    var ca: String?

    @Option(help: "Where to write the authority, the API key and service-settings.json.")
    var output = "receiptkit-simulate"

    @Option(help: "Seconds a POST to --notify may take.")
    var timeout = 10.0

    @Flag(help: "Stop once the timeline is over, instead of serving until interrupted.")
    var exitWhenDone = false

    func validate() throws {
        guard (0...65_535).contains(self.port) else { throw ValidationError("--port takes 0 to 65535, not \(self.port)") }
        for (name, rate) in [("--duplicate", self.duplicate), ("--drop", self.drop)] where !(0...1).contains(rate) {
            throw ValidationError("\(name) takes a share from 0 to 1, not \(rate)")
        }
        guard self.speed.isFinite, self.speed > 0 else { throw ValidationError("--speed takes a positive number, not \(self.speed)") }
        guard self.timeout.isFinite, self.timeout > 0, self.timeout <= 3_600 else {
            throw ValidationError("--timeout takes 0 to 3600 seconds, not \(self.timeout)")
        }
        guard self.notify.hasPrefix("http://") || self.notify.hasPrefix("https://") else {
            throw ValidationError("--notify takes an http:// or https:// URL, not '\(self.notify)'")
        }
        if let start, RFC3339Format.date(start) == nil {
            throw ValidationError("--start takes an RFC 3339 time, not '\(start)'")
        }
    }

    func run() async throws {
        let scenario = try ScenarioFile.read(self.scenario)
        let launch = Date()
        let seed = self.seed ?? UInt64.random(in: 1...999_999_999)
        let timeline = try ScenarioFile.placedTimeline(
            scenario, path: self.scenario, start: self.start.flatMap(RFC3339Format.date), now: launch, seed: seed)
        if timeline.end > launch {
            StandardError.write(
                "receiptkit: the last event, \(RFC3339Format.string(timeline.end) ?? "?"), is after now: the App Store "
                    + "signs nothing in the future; choose an earlier --start\n")
            throw ExitStatus.usage.exitCode
        }
        let authority = try self.authority()
        let key = P256.Signing.PrivateKey()
        let credentials = SimulateCredentials(key: key)
        let store = SimulatedAppStore()
        store.register(SimulatedAPIKey(keyID: credentials.keyID, issuerID: credentials.issuerID, publicKey: key.publicKey))
        let playback = ScenarioPlayback(
            shuffle: self.shuffle, duplicateRate: self.duplicate, dropRate: self.drop, speed: self.speed, seed: seed,
            timeout: .milliseconds(Int64(self.timeout * 1000)))
        let player = ScenarioPlayer(timeline: timeline, store: store, authority: authority, playback: playback, launch: launch)
        let clock = player.clock
        let simulator = AppStoreServerSimulator(
            store: store, authority: authority, environment: scenario.environment,
            now: { clock.simulated(at: Date()) })
        let (output, notify, exitWhenDone) = (self.output, self.notify, self.exitWhenDone)
        let first = timeline.steps.first?.date ?? timeline.start
        do {
            try await simulator.run(port: self.port) { baseURL in
                let settings = try credentials.write(
                    to: output, scenario: scenario, baseURL: baseURL, anchor: self.ca.map { "\($0)/root.cer" })
                print("App Store Server API simulator: \(baseURL) (\(scenario.environment.rawValue))")
                print("  trust the test root: \(self.ca ?? output)/root.cer")
                print("  key id \(credentials.keyID), issuer id \(credentials.issuerID), key \(output)/\(credentials.keyFile)")
                print("  settings for receiptkit serve --config: \(settings)")
                print("seed \(seed): " + ScenarioText.summary(timeline))
                // Standard output may be a pipe or a file, read while the simulator goes on serving.
                fflush(nil)
                if launch.timeIntervalSince(first) > 7 * 86_400 {
                    StandardError.write(
                        "receiptkit: warning: the timeline began \(ScenarioText.span(launch.timeIntervalSince(first))) ago: "
                            + "a service with the default notification_max_age_seconds (7 days) refuses notifications signed "
                            + "earlier (its backfill does not); use a shorter scenario, --start, or raise the setting\n")
                }
                StandardError.write(
                    "playing \(player.plan.sends) sends to \(notify) over \(ScenarioText.span(timeline.duration / playback.speed))\n")
                let report = try await player.play(
                    notifying: notify, transport: AsyncHTTPTransport(), wallClock: { Date() },
                    sleep: { try await Task.sleep(for: $0) },
                    progress: { StandardError.write(ScenarioText.line($0) + "\n") })
                print(
                    "played: \(report.notifications) notifications, \(report.delivered) POSTs acknowledged, "
                        + "\(report.failed) failed, \(report.duplicates) duplicates, \(report.dropped) dropped")
                for outcome in timeline.outcomes {
                    print("  \(outcome.customer) \(outcome.productID): \(outcome.state) (original transaction \(outcome.originalTransactionID))")
                }
                fflush(nil)
                guard !exitWhenDone else { return }
                StandardError.write("the timeline is over; serving \(baseURL) until interrupted (SIGINT, SIGTERM)\n")
                for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { break }
            }
        } catch let error as SimulatorError where error.code == .notStarted {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitStatus.usage.exitCode
        }
    }

    func authority() throws -> JWSTestAuthority {
        if let ca = self.ca {
            return try exitingOnMintingErrors { () throws(MintingError) in try JWSTestAuthority(contentsOf: URL(fileURLWithPath: ca)) }
        }
        let authority = try JWSTestAuthority()
        try exitingOnMintingErrors { () throws(MintingError) in try authority.save(to: URL(fileURLWithPath: self.output)) }
        return authority
    }
}
