import AppStorePKI
import AppStoreServerAPISimulator
import ArgumentParser
import Foundation
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared

struct SimulateExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a scenario from a ledger's real history, every identifier replaced.",
        discussion: """
            Reads customers of one app from the ledger — those --transaction-id names (any transaction or original \
            transaction id of theirs), or every one with --all — and writes their purchases, renewals, billing \
            failures, refunds and the rest of what the notifications recorded as a scenario, at the moments they \
            happened (the scenario's start is the first). Customers become customer-1, customer-2, …; app account \
            tokens are replaced by fresh UUIDs; the timeline makes its own transaction ids. Bundle and product ids \
            stay. Each subscription's state in the ledger at the last event becomes an expectation, so \
            `receiptkit simulate check` says where the simulator's story ends otherwise. A customer whose history \
            the simulator cannot tell is left out, with the reason on standard error; so are notification types \
            the scenario format has no event for (counted). Exit status: 0 written; 1 no customer to write; \
            64 usage; 66 a file cannot be read; 69 the database cannot be reached; 70 it answered otherwise; 73 the \
            output cannot be written.
            """
    )

    @Option(help: "The ledger: sqlite:PATH or postgres://… (default: the settings', else sqlite:receiptkit.sqlite).")
    var database: String?

    @Option(help: "serve's JSON settings file (for the database).")
    var config: String?

    @Option(help: "The app's bundle id.")
    var bundleID: String

    @Option(help: "Production or Sandbox.")
    var environment: String = AppStoreEnvironment.production.rawValue

    @Option(name: .customLong("transaction-id"), help: "A customer, by a transaction id of theirs (repeatable).")
    var transactionIDs: [String] = []

    @Flag(help: "Every customer of the app (at most --limit).")
    var all = false

    @Option(help: "The most customers written.")
    var limit = 1_000

    @Option(help: "The app's Apple ID in the scenario.")
    var appAppleID: Int64 = 1_234_567_890

    @Option(help: "Chooses the replacement app account tokens.")
    var seed: UInt64 = 0

    @Option(help: "Where to write the scenario (default: standard output).")
    var output: String?

    func validate() throws {
        guard self.scenarioEnvironment != nil else {
            throw ValidationError("--environment is Production or Sandbox, not '\(self.environment)'")
        }
        guard !self.bundleID.isEmpty else { throw ValidationError("--bundle-id must not be empty") }
        guard self.all != !self.transactionIDs.isEmpty else {
            throw ValidationError("name customers with --transaction-id, or --all, not both")
        }
        guard (1...SimulationScenario.maximumEvents).contains(self.limit) else {
            throw ValidationError("--limit is 1 to \(SimulationScenario.maximumEvents)")
        }
        guard (1...Int64(Int32.max) * 4).contains(self.appAppleID) else { throw ValidationError("--app-apple-id is out of range") }
    }

    var scenarioEnvironment: AppStoreEnvironment? {
        [AppStoreEnvironment.production, .sandbox].first { $0.rawValue == self.environment }
    }

    func run() async throws {
        var configuration = ServiceConfiguration()
        (configuration.settingsFile, configuration.database) = (self.config, self.database)
        configuration.environment = ProcessInfo.processInfo.environment
        configuration.commandLineSettings["migrate_on_start"] = "false"
        let (environment, bundle) = (self.scenarioEnvironment ?? .production, self.bundleID)
        let (ids, all, limit, appAppleID, seed) = (self.transactionIDs, self.all, self.limit, self.appAppleID, self.seed)
        let read: Result<(export: ScenarioExport, unknown: [String]), LedgerError>
        do {
            read = try await configuration.withLedger { ledger, _ in
                do throws(LedgerError) {
                    let reader = ExportReader(ledger: ledger, environment: environment, bundleIdentifier: bundle)
                    let (customers, unknown) = try await reader.customers(ids: ids, all: all, limit: limit) { count in
                        if count % 100 == 0 { StandardError.write("receiptkit: \(count) customers read\n") }
                    }
                    // Once to learn the last event's moment, then again with the ledger's states a second after it: the
                    // scenario's moments are whole seconds, so each event happened in the ledger before then.
                    let first = ScenarioExport(
                        bundleIdentifier: bundle, environment: environment, appAppleID: appAppleID, customers: customers, seed: seed)
                    let end = (first.end ?? Date()).addingTimeInterval(1)
                    var stated = customers
                    for index in stated.indices { stated[index].states = await reader.states(of: stated[index], at: end) }
                    let export = ScenarioExport(
                        bundleIdentifier: bundle, environment: environment, appAppleID: appAppleID, customers: stated, seed: seed)
                    return .success((export, unknown))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitCode(error)
        }
        let export: ScenarioExport, unknown: [String]
        switch read {
        case .success(let value): (export, unknown) = value
        case .failure(let error):
            StandardError.write("receiptkit: database: \(error.code.rawValue): \(error.reason)\n")
            throw ExitCode(error.code == .unavailable ? 69 : 70)
        }
        for id in unknown { StandardError.write("receiptkit: no customer of \(bundle) (\(environment.rawValue)) has transaction \(id)\n") }
        for dropped in export.dropped { StandardError.write("receiptkit: \(dropped.customer) left out: \(dropped.reason)\n") }
        for (type, count) in export.skipped.sorted(by: { $0.key < $1.key }) {
            StandardError.write("receiptkit: skipped \(count) × \(type)\n")
        }
        for sentence in export.disagreements { StandardError.write("receiptkit: the ledger and the timeline differ: \(sentence)\n") }
        guard let scenario = export.scenario else {
            StandardError.write("receiptkit: no customer to write\n")
            throw ExitCode(1)
        }
        let text = scenario.json
        if let output = self.output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                StandardError.write("receiptkit: cannot write \(output): \(error.localizedDescription)\n")
                throw ExitStatus.cannotCreate.exitCode
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        StandardError.write(
            "exported: \(scenario.customers.count) customers, \(scenario.events.count) events, \(scenario.expectations.count) expectations; \(export.dropped.count) left out\n")
    }
}
