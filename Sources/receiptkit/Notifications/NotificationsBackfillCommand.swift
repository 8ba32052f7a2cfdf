import ArgumentParser
import Foundation
import ReceiptKit
import ReceiptService
import _ReceiptKitShared

struct NotificationsBackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract: "Recover notifications that never arrived, from Get Notification History, once (the service does it on a schedule).",
        discussion: """
            For every app of the settings' app_store_server_api with a private_key_file, in each environment it \
            is configured for, asks Apple's Get Notification History for a window — from --since, else from \
            where the service's backfill stands (its cursor in the ledger, less one interval; else the newest \
            notification the ledger holds; else look_back_seconds ago; never past Apple's 180 days) to now — and \
            records each notification found as POST /notifications/v2 would: verified, a duplicate of one the \
            ledger holds costs nothing. A window that completes moves the app's cursor (not with --only-failures). \
            The ledger and settings are serve's: --database, --config, RECEIPTKIT_ variables, --anchor. \
            Progress goes to standard error, a summary per app to standard output (--json: one JSON object per \
            app and environment).
            Exit status: 0 every window completed (refused notifications are counted, not failures); 75 another \
            instance was running an app's backfill, so nothing was asked for it (run again); 69 a window \
            failed (Apple unreachable or failing, the ledger unavailable: run it again, nothing recorded is lost), \
            77 Apple refused the key; 64 no app has a private key, or a usage error; 64, 65, 66 and 69 for \
            settings, files and the database as serve reads them.
            """
    )

    @Option(help: "The ledger: sqlite:PATH or postgres://… (default: the settings', else sqlite:receiptkit.sqlite).")
    var database: String?

    @Option(help: "serve's JSON settings file (app_store_server_api, database, anchors, notification_backfill).")
    var config: String?

    @Option(name: .customLong("anchor"), help: "A trusted anchor certificate besides Apple's root (repeatable).")
    var anchors: [String] = []

    @Option(help: "Where the windows start (RFC 3339; at most 180 days ago); default: where the backfill stands.")
    var since: String?

    @Flag(help: "Only notifications Apple could not deliver (onlyFailures); the cursor does not move.")
    var onlyFailures = false

    @Flag(help: "The summary as JSON, one object per app and environment.")
    var json = false

    func validate() throws {
        if let since, RFC3339.date(since) == nil {
            throw ValidationError("--since takes an RFC 3339 time, not '\(since)'")
        }
    }

    func run() async throws {
        var configuration = ServiceConfiguration()
        (configuration.settingsFile, configuration.database, configuration.anchorFiles) = (self.config, self.database, self.anchors)
        configuration.environment = ProcessInfo.processInfo.environment
        let since = self.since.flatMap(RFC3339.date)
        let onlyFailures = self.onlyFailures
        let progress = BackfillProgress(inPlace: StandardError.isTerminal)
        let outcome: Result<[NotificationBackfillReport], ServiceStartupError>
        do {
            outcome = try await configuration.withLedger { ledger, accepted in
                do throws(ServiceStartupError) {
                    let components = try ServiceComponents(configuration: accepted, ledger: ledger, now: { Date() })
                    return .success(
                        await components.backfillNotifications(since: since, onlyFailures: onlyFailures) { report in
                            progress.show(report)
                        })
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitCode(error)
        }
        progress.end()
        let reports: [NotificationBackfillReport]
        switch outcome {
        case .success(let value): reports = value
        case .failure(let error):
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitCode(error)
        }
        guard !reports.isEmpty else {
            StandardError.write(
                "receiptkit: no app of app_store_server_api has a private_key_file: there is nothing to ask Apple for\n")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        for report in reports {
            print(self.json ? String(decoding: BackfillSummary.json(report).serialized, as: UTF8.self) : BackfillSummary.text(report))
        }
        throw BackfillSummary.status(reports).exitCode
    }
}
