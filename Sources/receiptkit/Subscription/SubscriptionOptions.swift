import ArgumentParser
import AppStorePKI
import Foundation
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared

/// The options every `receiptkit subscription` command takes: the ledger, the app, the environment, the moment and
/// the output.
struct SubscriptionOptions: ParsableArguments {
    @Option(help: "The ledger: sqlite:PATH or postgres://… (default: the settings', else sqlite:receiptkit.sqlite).")
    var database: String?

    @Option(help: "serve's JSON settings file (database; entitlements for their names).")
    var config: String?

    @Option(help: "The app's bundle id.")
    var bundleID: String

    @Option(help: "Production, Sandbox or Xcode.")
    var environment: String = AppStoreEnvironment.production.rawValue

    @Option(help: "The moment asked about (RFC 3339; default: now).")
    var at: String?

    @Flag(help: "Print the service's JSON answer instead of text.")
    var json = false

    func validate() throws {
        guard self.appStoreEnvironment != nil else {
            throw ValidationError("--environment is Production, Sandbox or Xcode, not '\(self.environment)'")
        }
        if let at, RFC3339Format.date(at) == nil { throw ValidationError("--at takes an RFC 3339 time, not '\(at)'") }
        guard !self.bundleID.isEmpty else { throw ValidationError("--bundle-id must not be empty") }
    }

    var appStoreEnvironment: AppStoreEnvironment? {
        [AppStoreEnvironment.production, .sandbox, .xcode].first { $0.rawValue == self.environment }
    }

    /// The moment, or now.
    var moment: Date { self.at.flatMap(RFC3339Format.date) ?? Date() }

    /// One of the mirror's answers (`report`: ``SubscriptionReport/statuses(environment:bundleIdentifier:transactionID:in:now:)``
    /// or its history) for the customer `id` names, printed.
    func customer(
        _ id: String,
        _ report: @escaping @Sendable (AppStoreEnvironment, String, String, any Ledger, @escaping @Sendable () -> Date) async
            -> SubscriptionReport.Answer,
        text: @escaping @Sendable ([String: JSONValue]) -> String
    ) async throws {
        let (environment, bundle, moment) = (self.appStoreEnvironment ?? .production, self.bundleID, self.moment)
        try await self.answer({ ledger, _ in await report(environment, bundle, id, ledger, { moment }) }, text: text)
    }

    /// Runs `body` on the ledger the options name (never migrated) with the entitlement names of the settings, then
    /// prints `body`'s answer (JSON, or `text` of it) and exits with its status.
    func answer(
        _ body: @escaping @Sendable (any Ledger, [String: [String: [String]]]) async -> SubscriptionReport.Answer,
        text: @escaping @Sendable ([String: JSONValue]) -> String
    ) async throws {
        var configuration = ServiceConfiguration()
        (configuration.settingsFile, configuration.database) = (self.config, self.database)
        configuration.environment = ProcessInfo.processInfo.environment
        configuration.commandLineSettings["migrate_on_start"] = "false"
        let answer: SubscriptionReport.Answer
        do {
            answer = try await configuration.withLedger { ledger, accepted in await body(ledger, accepted.entitlements) }
        } catch {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitCode(error)
        }
        let object: [String: JSONValue]
        if case .object(let members)? = try? JSONParser.parse(answer.body, maximumDepth: 16) {
            object = members
        } else {
            object = [:]
        }
        guard answer.status == 200 else {
            // The service's refusal: the mirror's Apple error, or the entitlements endpoint's reason.
            let why = object["errorMessage"]?.stringValue ?? object["reason"]?.stringValue ?? "HTTP \(answer.status)"
            StandardError.write("receiptkit: \(why)\n")
            if self.json { FileHandle.standardOutput.write(Data(answer.body + [0x0A])) }
            switch answer.status {
            case 404: throw ExitCode(1)
            case 400: throw ExitCode(64)
            case 503: throw ExitCode(69)
            default: throw ExitCode(70)
            }
        }
        FileHandle.standardOutput.write(Data((self.json ? answer.body : Array(text(object).utf8)) + [0x0A]))
    }
}
