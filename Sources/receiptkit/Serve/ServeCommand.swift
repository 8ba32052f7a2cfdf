import AppStoreJWS
import AppStoreJWSOCSP
import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ReceiptKit
import ReceiptLedger
import ReceiptService
import ServiceLifecycle
import X509

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a self-hosted verifyReceipt (POST /verifyReceipt, /sandbox/verifyReceipt) with a ledger fed by receipts and server notifications.",
        discussion: """
            Answers like Apple's verifyReceipt: HTTP 200 with a status (0, 21002, 21003, 21004, 21007, 21008, \
            21009, 21010) and, for a valid receipt, the receipt, latest_receipt_info and latest_receipt from the \
            ledger. POST /notifications/v2 takes App Store Server Notifications V2 (verified, recorded once per \
            notificationUUID, refused when older than --notification-max-age); POST /jws/verify verifies any App \
            Store JWS and returns its payload. GET /health and GET /metrics (Prometheus) too. Stops gracefully on \
            SIGTERM or SIGINT.

            Database: sqlite:PATH (default sqlite:receiptkit.sqlite, created and migrated on start), \
            sqlite::memory:, or postgres://user:password@host:port/database?sslmode=disable for several instances.

            Exit status: 0 after a graceful stop, 64 usage error, 65 malformed configuration or anchor, \
            66 unreadable configuration or anchor file, 69 database unavailable or server cannot start.
            """
    )

    @Option(help: "Address to bind.")
    var host: String?

    @Option(help: "Port to bind (0 picks a free one; the chosen port is printed).")
    var port: Int?

    @Option(help: "The ledger: sqlite:PATH, sqlite::memory: or postgres://… (default sqlite:receiptkit.sqlite).")
    var database: String?

    @Option(help: "A JSON settings file (allowed_bundle_ids, shared_secrets, anchors, limits; see README).")
    var config: String?

    @Option(name: .customLong("anchor"), help: "A trusted anchor certificate besides Apple's root (repeatable).")
    var anchors: [String] = []

    @Flag(help: "Accept Xcode StoreKit-testing receipts on the sandbox endpoint, and locally signed JWS. Never in production.")
    var allowXcode = false

    @Option(
        name: .customLong("notification-max-age"),
        help: "Refuse server notifications signed longer ago than this many seconds (default 604800: 7 days; Apple retries for about 157 hours)."
    )
    var notificationMaxAge: Double?

    @Flag(
        name: .customLong("check-revocation"),
        help: "Check App Store JWS certificates online (OCSP, Apple's responders); unreachable means 503 to a notification, so Apple retries."
    )
    var checkRevocation = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port takes 0-65535, not \(port)")
        }
        if let seconds = self.notificationMaxAge, !NotificationConfiguration.isValidMaximumAge(seconds) {
            throw ValidationError("--notification-max-age takes 60 to 31536000 seconds, not \(seconds)")
        }
        if Logger.Level(rawValue: self.logLevel) == nil {
            throw ValidationError("--log-level takes trace, debug, info, notice, warning, error or critical")
        }
        if let database {
            do { _ = try LedgerLocation(database) } catch { throw ValidationError("--database: \(error.reason)") }
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: self.logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "receiptkit.serve")

        var settings = ServiceConfigurationFile?.none
        if let path = self.config {
            do {
                settings = try ServiceConfigurationFile(json: try ReceiptFile.contents(atPath: path))
            } catch let error as ReceiptFileError {
                throw InputFailure(error).reported(subject: "--config \(path)")
            } catch {
                StandardError.write("receiptkit: --config \(path): \(error)\n")
                throw ExitStatus.malformed.exitCode
            }
        }

        var configuration = VerifyReceiptConfiguration()
        settings?.apply(to: &configuration)
        if let seconds = self.notificationMaxAge {
            configuration.notifications.maximumAge = .seconds(seconds)
        }
        if self.allowXcode { configuration.allowsXcodeReceipts = true }
        if self.checkRevocation { configuration.jwsRevocationCheck = JWSRevocationCheck(transport: HTTPOCSPTransport()) }
        // The file's anchors are relative to the file (`--config cfg.json` included), the options' to the caller.
        let settingsDirectory = self.config.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        let anchorPaths =
            (settings?.anchors ?? []).map { anchor in
                settingsDirectory.map { URL(fileURLWithPath: anchor, relativeTo: $0).path } ?? anchor
            } + self.anchors
        configuration.anchors = ReceiptTrustAnchors(try AnchorFiles.certificates(anchorPaths, label: "anchor"))

        let location: LedgerLocation
        do {
            location = try LedgerLocation(self.database ?? settings?.database ?? "sqlite:receiptkit.sqlite")
        } catch {
            StandardError.write("receiptkit: database: \(error.reason)\n")
            throw ExitStatus.usage.exitCode
        }
        let ledger: any Ledger
        var services: [any Service] = []
        do {
            switch location {
            case .sqlite(let path):
                ledger = try await SQLiteLedger(path: path, logger: logger)
            case .postgres(let url):
                let postgres = try PostgresLedger(url: url, logger: logger)
                services.append(postgres)
                ledger = postgres
            }
        } catch {
            StandardError.write("receiptkit: database \(location): \(error.reason)\n")
            throw ExitCode(69)
        }

        // The clock lives here, at the edge: the library takes it as an input.
        let verifier = ReceiptVerifier(configuration: configuration, ledger: ledger, now: { Date() })
        let server = VerifyReceiptServer(
            verifier: verifier,
            host: self.host ?? settings?.host ?? "127.0.0.1",
            port: self.port ?? settings?.port ?? 8080,
            logger: logger
        )
        let description = location.description
        var application = server.application(services: services) { channel in
            let address = channel.localAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
            StandardError.write("receiptkit: serving verifyReceipt on http://\(address) (ledger \(description))\n")
        }
        application.beforeServerStarts {
            try await ledger.migrate()
            let version = try await ledger.schemaVersion()
            logger.info("ledger ready", metadata: ["database": .string(description), "schema_version": "\(version)"])
        }
        do {
            try await application.runService()
        } catch {
            await ledger.shutdown()
            StandardError.write("receiptkit: serve: \(Self.describe(error))\n")
            throw ExitCode(69)
        }
        await ledger.shutdown()
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? LedgerError { return "ledger: \(error.reason)" }
        return String(describing: error)
    }
}
