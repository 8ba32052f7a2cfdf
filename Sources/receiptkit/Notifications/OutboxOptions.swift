import ArgumentParser
import Foundation
import ReceiptLedger
import ReceiptService

/// What every `receiptkit notifications outbox` command shares: serve's ledger and settings, and which entries.
struct OutboxOptions: ParsableArguments {
    @Option(help: "The ledger: sqlite:PATH or postgres://… (default: the settings', else sqlite:receiptkit.sqlite).")
    var database: String?

    @Option(help: "serve's JSON settings file (database, notification_targets, notification_forwarding).")
    var config: String?

    @Option(help: "Only the entries of this target (its name, as notification_targets gives it).")
    var target: String?

    @Option(name: .customLong("uuid"), help: "Only the entries of this notificationUUID.")
    var notificationUUID: String?

    /// Runs `body` on the settings' ledger; a start-up refusal or a ledger failure is said and exits as serve would.
    func withLedger<T: Sendable>(
        _ body: @escaping @Sendable (any Ledger, VerifyReceiptConfiguration) async throws(LedgerError) -> T
    ) async throws -> T {
        var configuration = ServiceConfiguration()
        (configuration.settingsFile, configuration.database) = (self.config, self.database)
        configuration.environment = ProcessInfo.processInfo.environment
        let outcome: Result<T, LedgerError>
        do {
            outcome = try await configuration.withLedger { ledger, accepted in
                do throws(LedgerError) {
                    return .success(try await body(ledger, accepted))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitCode(error)
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error):
            StandardError.write("receiptkit: the ledger: \(error.reason)\n")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
    }

    func filter(state: LedgerOutboxEntry.State?, limit: Int = 1000) -> LedgerOutboxFilter {
        LedgerOutboxFilter(target: self.target, notificationUUID: self.notificationUUID, state: state, limit: limit)
    }
}
