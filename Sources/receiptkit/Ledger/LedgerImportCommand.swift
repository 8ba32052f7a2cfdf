import ArgumentParser
import Foundation
import ReceiptKit
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared

struct LedgerImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import stored receipts into the ledger, validated as the service would (a team moving off Apple's verifyReceipt).",
        discussion: """
            The inputs are validate's batch inputs: receipt files, directories (read recursively), --files-from \
            lists, --lines (one base64 receipt per line). The ledger and what it accepts are serve's: --database, \
            --config, RECEIPTKIT_ variables, --anchor, --allow-xcode; the schema is migrated first when \
            migrate_on_start is true (the default), as serve does. Each receipt is validated (signature, chain at \
            its creation date, allowed_bundle_ids) and recorded under its environment; a receipt the ledger holds \
            already is skipped by its SHA-256 before it is validated, so an interrupted import resumes when run \
            again. Each input not imported prints one JSON line on standard output (validate's shape without the \
            receipt; reasons say why: validate's codes, bundle_id_not_allowed, string_contains_nul, ledger_error \
            (the database refused that receipt), or malformed or unreadable with an error); progress (a line on a \
            terminal, otherwise every ten seconds) and a summary go to standard error.
            Exit status: 0 every input imported or already in the ledger, 1 some refused or invalid, 65 some \
            malformed, 66 some unreadable (the worst); 69 the database unavailable during the import (it stopped: \
            run it again to resume) or at start (unreachable, in use by a server, schema not current); 64, 65 and \
            66 also for options, settings and anchors as serve reads them; 73 standard output cannot be written.
            """
    )

    @Option(help: "The ledger: sqlite:PATH or postgres://… (default: the settings', else sqlite:receiptkit.sqlite).")
    var database: String?

    @Option(help: "serve's JSON settings file (database, anchors, allowed_bundle_ids, allow_xcode_receipts, limits).")
    var config: String?

    @Option(name: .customLong("anchor"), help: "A trusted anchor certificate besides Apple's root (repeatable).")
    var anchors: [String] = []

    @Flag(help: "Accept Xcode StoreKit-testing receipts (recorded under the Xcode environment). Never in production.")
    var allowXcode = false

    @Flag(help: "The inputs are base64 text (detected automatically otherwise).")
    var base64 = false

    @Option(help: "When the receipts are seen (RFC 3339; default: now): their first-seen time in the ledger.")
    var now: String?

    @OptionGroup
    var batch: BatchInputOptions

    func validate() throws {
        if self.batch.isEmpty {
            throw ValidationError("give receipt files or directories, --files-from or --lines")
        }
        if self.batch.ordered {
            throw ValidationError("--ordered applies to validate's output: import reports refusals as they happen")
        }
        if let now, RFC3339.date(now) == nil {
            throw ValidationError("--now takes an RFC 3339 time, not '\(now)'")
        }
    }

    func run() async throws {
        var configuration = ServiceConfiguration()
        (configuration.settingsFile, configuration.database, configuration.anchorFiles) = (self.config, self.database, self.anchors)
        configuration.environment = ProcessInfo.processInfo.environment
        configuration.allowsXcodeReceipts = self.allowXcode ? true : nil
        let now = self.now.flatMap(RFC3339.date) ?? Date()
        let inputs = self.batch.batchInputs
        let options = self.batch.sourceOptions
        let jobs = self.batch.jobCount
        let base64 = self.base64 ? true : nil

        let clock = ContinuousClock()
        let start = clock.now
        let terminal = StandardError.isTerminal
        let known = BatchTotal.known(inputs)
        let tally = ImportTally(progressInPlace: terminal, total: known)
        if known == nil { BatchTotal.count(inputs, options: options) { tally.setTotal($0) } }
        do {
            try await configuration.withLedger { ledger, accepted in
                await LedgerImport(
                    inputs: inputs, options: options, jobs: jobs, base64: base64, accepted: accepted, now: now
                ).run(into: ledger, tally: tally)
            }
        } catch {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitCode(error)
        }

        let finish = tally.finish()
        if finish.progressDrawn { StandardError.write("\n") }
        let seconds = DurationConversion.seconds(clock.now - start)
        let rate = seconds > 0 ? Double(finish.counts.imported + finish.counts.alreadyRecorded) / seconds : 0
        StandardError.write(
            "receiptkit: \(finish.counts.summary) in \(String(format: "%.2f", seconds)) s "
                + "(\(BatchProgress.grouped(Int(rate.rounded())))/s)\n")
        var status = finish.worst
        if let failure = finish.failure {
            StandardError.write(
                "receiptkit: ledger: \(failure.reason): the import stopped; what it counted as imported is committed: "
                    + "run it again to resume (receipts in the ledger are skipped)\n")
            // Whatever the inputs were, the import is not done.
            status = .unavailable
        }
        if let errno = finish.outputFailure {
            StandardError.write("receiptkit: standard output: write failed: \(String(cString: strerror(errno)))\n")
            status = max(status, .cannotCreate)
        }
        throw status.exitCode
    }
}
