import AppStoreServerAPISimulator
import ArgumentParser
import Foundation
import _ReceiptKitShared

struct SimulateCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Read a scenario, live its timeline, and say whether its expectations hold.",
        discussion: """
            Prints each event's notifications (type, subtype, customer, original transaction) and every \
            customer's products at the end. Exit status: 0 the scenario is valid and every expectation holds; \
            1 an expectation does not hold; 65 the scenario is malformed or an event cannot happen (the message \
            names it, e.g. events[3]); 66 the file cannot be read.
            """
    )

    @Argument(help: "The scenario file (JSON).")
    var scenario: String

    @Option(help: "The moment of P0D (RFC 3339); default: the scenario's start, else so that the last event is now.")
    var start: String?

    @Option(help: "Chooses the notification UUIDs and transaction identifiers.")
    var seed: UInt64 = 0

    @Flag(help: "List only the outcome, not every notification.")
    var quiet = false

    func validate() throws {
        if let start, RFC3339Format.date(start) == nil {
            throw ValidationError("--start takes an RFC 3339 time, not '\(start)'")
        }
    }

    func run() throws {
        let scenario = try ScenarioFile.read(self.scenario)
        let timeline = try ScenarioFile.placedTimeline(
            scenario, path: self.scenario, start: self.start.flatMap(RFC3339Format.date), now: Date(), seed: self.seed)
        if !self.quiet {
            for notification in timeline.notifications {
                print(ScenarioText.line(notification))
            }
        }
        print(ScenarioText.summary(timeline))
        for outcome in timeline.outcomes {
            print("  \(outcome.customer) \(outcome.productID): \(outcome.state)")
        }
        let unmet = timeline.unmetExpectations()
        for sentence in unmet { print("expectation not met: \(sentence)") }
        if !unmet.isEmpty { throw ExitStatus.invalid.exitCode }
    }
}
