import ArgumentParser
import class Foundation.ProcessInfo
import struct Foundation.Date
import Hummingbird
import Logging
import NIOCore
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a self-hosted verifyReceipt (POST /verifyReceipt, /sandbox/verifyReceipt) with a ledger fed by receipts and server notifications.",
        discussion: """
            Answers like Apple's verifyReceipt: HTTP 200 with a status (0, 21002, 21003, 21004, 21007, 21008, \
            21009, 21010) and, for a valid receipt, the receipt, latest_receipt_info and latest_receipt from the \
            ledger. POST /notifications/v2 takes App Store Server Notifications V2 (verified, recorded once per \
            notificationUUID, refused when older than --notification-max-age); POST /jws/verify (with --set \
            jws_verify_endpoint=true) verifies any App Store JWS and returns its payload. GET /health and GET /metrics (Prometheus) too. Stops gracefully on \
            SIGTERM or SIGINT.

            Database: sqlite:PATH (default sqlite:receiptkit.sqlite, created and migrated on start), \
            sqlite::memory:, or postgres://user:password@host:port/database?sslmode=disable for several instances.

            Exit status: 0 after a graceful stop, 64 usage error (a flag or --set value out of its rule), 65 malformed \
            configuration (the file or a RECEIPTKIT_ variable) or anchor, \
            66 unreadable configuration or anchor file, 69 database unavailable or server cannot start.
            """
    )

    @Option(help: "Address to bind.") var host: String?
    @Option(help: "Port to bind (0 picks a free one; the chosen port is printed).") var port: Int?
    @Option(help: "The ledger: sqlite:PATH, sqlite::memory: or postgres://… (default sqlite:receiptkit.sqlite).")
    var database: String?
    @Option(help: "A JSON settings file (allowed_bundle_ids, shared_secrets, anchors, limits; see --list-settings).")
    var config: String?
    @Option(
        name: .customLong("set"), parsing: .singleValue,
        help: ArgumentHelp(
            "Any setting by name, as text (repeatable): --set request_timeout_seconds=5; lists and objects as JSON.",
            valueName: "name=value"))
    var settings: [String] = []
    @Flag(help: "Print every setting (name, RECEIPTKIT_ environment variable, default, rule) and exit.")
    var listSettings = false
    @Option(help: "With --list-settings: text (default) or markdown (the configuration reference's table).")
    var format: String = "text"
    @Flag(
        help: """
            Read and check every setting, load the anchors and App Store Server API keys, open the database and read \
            its schema version, print what was found and exit (0 when serve would start) — without serving or writing.
            """)
    var checkConfig = false
    @Flag(
        help: """
            Migrate the ledger to this build's schema version and exit, without serving: with migrate_on_start \
            false, run it as a role that may change the schema before starting the new version.
            """)
    var migrate = false
    @Option(name: .customLong("anchor"), help: "A trusted anchor certificate besides Apple's root (repeatable).")
    var anchors: [String] = []
    @Flag(help: "Accept Xcode StoreKit-testing receipts on the sandbox endpoint, and locally signed JWS. Never in production.")
    var allowXcode = false
    @Option(help: "Refuse server notifications signed longer ago than this many seconds (default 604800: 7 days; Apple retries for about 157 hours).")
    var notificationMaxAge: Double?
    @Flag(help: "Check App Store JWS certificates online (OCSP, Apple's responders); unreachable means 503 to a notification, so Apple retries.")
    var checkRevocation = false
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel: String = "info"
    @Option(
        help: """
            Log lines on standard error: text, or json (one object a line: time, level, label, message and the \
            metadata; the start-up line and a stopping error too).
            """)
    var logFormat: String = "text"

    /// Only what is the command line's own is checked here; every setting's rule is checked once, with the other
    /// sources' values, when the service is composed (a flag out of its rule exits 64 with the rule).
    func validate() throws {
        guard ["text", "markdown"].contains(self.format) else { throw ValidationError("--format is text or markdown") }
        if self.checkConfig && self.migrate { throw ValidationError("--check-config and --migrate exclude each other") }
        guard StandardErrorLogging.Format(rawValue: self.logFormat) != nil else {
            throw ValidationError("--log-format is text or json")
        }
        if StandardErrorLogging.level(self.logLevel) == nil {
            throw ValidationError("--log-level takes trace, debug, info, notice, warning, error or critical")
        }
        // The argument itself is never quoted: it may be a secret given by mistake without its name.
        for setting in self.settings where !setting.contains("=") {
            throw ValidationError("--set takes name=value (\(setting.count) characters without '=' given)")
        }
        // A number a duration can hold (its rule, 60–31536000, is the setting's).
        if let seconds = self.notificationMaxAge, !(seconds.isFinite && abs(seconds) <= 1e12) {
            throw ValidationError("--notification-max-age takes a number of seconds, not \(seconds)")
        }
    }

    /// The `--set` settings by name (the last one given wins).
    var namedSettings: [String: String] {
        var named: [String: String] = [:]
        for setting in self.settings {
            guard let equals = setting.firstIndex(of: "=") else { continue }
            named[String(setting[..<equals])] = String(setting[setting.index(after: equals)...])
        }
        return named
    }

    /// Why a listening socket could not be bound, by errno, in words and with the way out.
    static let listenFailures: [Int32: String] = [
        EADDRINUSE: "the address is already in use (another process listens there: stop it, or choose another port "
            + "with --port or the port setting)",
        EADDRNOTAVAIL: "no interface of this machine has that address (check --host or the host setting)",
        EACCES: "permission denied (ports below 1024 need privileges: use a higher port behind a proxy)",
    ]

    func run() async throws {
        if self.listSettings {
            let descriptions = ServiceSettings.descriptions
            let listing = self.format == "markdown" ? ServeSettingsList.markdown(descriptions) : ServeSettingsList.text(descriptions)
            print(listing, terminator: "")
            return
        }
        let logFormat = StandardErrorLogging.Format(rawValue: self.logFormat) ?? .text
        StandardErrorLogging.bootstrap(level: StandardErrorLogging.level(self.logLevel) ?? .info, format: logFormat)
        var configuration = ServiceConfiguration()
        (configuration.settingsFile, configuration.host, configuration.port) = (self.config, self.host, self.port)
        (configuration.database, configuration.anchorFiles) = (self.database, self.anchors)
        configuration.environment = ProcessInfo.processInfo.environment
        configuration.commandLineSettings = self.namedSettings
        configuration.allowsXcodeReceipts = self.allowXcode ? true : nil
        configuration.checksRevocation = self.checkRevocation ? true : nil
        configuration.notificationMaximumAge = self.notificationMaxAge.map { DurationConversion.duration(seconds: $0) }
        if self.checkConfig {
            let check: ServiceCheck
            do {
                check = try await configuration.check()
            } catch {
                StandardError.write("receiptkit: \(error.reason)\n")
                throw ExitCode(error)
            }
            for line in check.lines { print(line) }
            guard check.isServable else {
                StandardError.write("receiptkit: serve would refuse the database at this schema version (see database: above)\n")
                throw ExitCode(69)
            }
            print("ready to serve")
            return
        }
        if self.migrate {
            do {
                let versions = try await configuration.migrateLedger()
                let database = versions.database
                print(
                    versions.from == versions.to
                        ? "\(database): schema version \(versions.to), this build's: nothing to migrate"
                        : "\(database): migrated from schema version \(versions.from) to \(versions.to)")
            } catch {
                StandardError.write("receiptkit: \(error.reason)\n")
                throw ExitCode(error)
            }
            return
        }
        configuration.onServerRunning = { address, ledger in
            Self.say(
                "serving verifyReceipt on http://\(address)", format: logFormat, level: .notice,
                text: " (ledger \(ledger))", metadata: ["ledger": .string(ledger)])
        }
        do {
            try await buildApplication(configuration: configuration).runService()
        } catch let error as ServiceStartupError {
            Self.say(error.reason, format: logFormat, level: .critical)
            throw ExitCode(error)
        } catch let failure as ProbeListenerFailure {
            // The probes' own listener: name its address and its setting.
            let errno = (failure.underlying as? IOError)?.errnoCode
            let why = errno.flatMap { Self.listenFailures[$0] }?
                .replacingOccurrences(of: "with --port or the port setting", with: "in the metrics_listen setting")
                .replacingOccurrences(of: "check --host or the host setting", with: "check the metrics_listen setting")
            Self.say(
                "cannot listen on \(failure.listener.description) (metrics_listen): \(why ?? "\(failure.underlying)")",
                format: logFormat, level: .critical)
            throw ExitCode(69)
        } catch let error as IOError where Self.listenFailures[error.errnoCode] != nil {
            // The socket could not be bound: say where, and what to do, not only the system call.
            let address = configuration.listeningAddress ?? "the configured address"
            Self.say(
                "cannot listen on \(address): \(Self.listenFailures[error.errnoCode] ?? "")", format: logFormat,
                level: .critical)
            throw ExitCode(69)
        } catch {
            let reason = (error as? LedgerError).map { "ledger: \($0.reason)" } ?? "\(error)"
            Self.say("serve: \(reason)", format: logFormat, level: .critical)
            throw ExitCode(69)
        }
    }

    /// What serve says on standard error whatever the log level — where it listens, why it stops: a line
    /// `receiptkit: MESSAGE` (and `text`), or with `--log-format json` a JSON log line with `metadata`.
    static func say(
        _ message: String, format: StandardErrorLogging.Format, level: Logger.Level, text: String = "",
        metadata: Logger.Metadata = [:]
    ) {
        switch format {
        case .text:
            StandardError.write("receiptkit: \(message)\(text)\n")
        case .json:
            StandardError.write(JSONLogHandler.line(
                time: Date(), level: level, label: "receiptkit.serve", message: message, metadata: metadata))
        }
    }
}
