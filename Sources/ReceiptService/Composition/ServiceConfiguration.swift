public import struct Foundation.Date
public import Logging

/// Everything ``buildApplication(configuration:)`` needs to compose the service: where the settings come from (a
/// settings file, the environment, the command line), the logger and the clock.
///
/// The settings are layered, lowest first (``ServiceSettings`` says how each source is read): ``verifyReceipt``
/// (the embedding code's values and the defaults), the settings file (``settingsFile``), the `RECEIPTKIT_…`
/// variables of ``environment``, then the command line: ``commandLineSettings`` by name, and the typed flags below. Each value
/// is checked once, after all of them, and a failure names the source.
///
/// ```swift
/// var configuration = ServiceConfiguration()
/// configuration.settingsFile = "/etc/receiptkit/serve.json"
/// configuration.environment = ProcessInfo.processInfo.environment   // RECEIPTKIT_SHARED_SECRETS, …
/// let application = try await buildApplication(configuration: configuration)
/// try await application.runService()
/// ```
public struct ServiceConfiguration: Sendable {
    /// What the verifier accepts before any source adjusts it (Apple's root, any app).
    public var verifyReceipt = VerifyReceiptConfiguration()
    /// A JSON settings file read at start; its relative `anchors` and key files are resolved against its
    /// directory.
    public var settingsFile: String?
    /// Environment variables; those named `RECEIPTKIT_` and a setting's name upper-cased are read (empty by default:
    /// pass `ProcessInfo.processInfo.environment` to read the process's, as `receiptkit serve` does). A
    /// `RECEIPTKIT_` variable that names no setting is logged as a warning, not silently dropped.
    public var environment: [String: String] = [:]
    /// Settings by name, as text, from the command line (`receiptkit serve --set NAME=VALUE`): they win over the
    /// file and the environment.
    public var commandLineSettings: [String: String] = [:]
    /// The address to bind (`--host`).
    public var host: String?
    /// The port to bind, 0 picking a free one (`--port`).
    public var port: Int?
    /// The ledger (`--database`: `sqlite:PATH`, `sqlite::memory:`, `postgres://…`, see `LedgerLocation`).
    public var database: String?
    /// Anchor certificate files (DER or PEM) trusted besides the other sources', relative to the working directory
    /// (`--anchor`).
    public var anchorFiles: [String] = []
    /// Whether Xcode StoreKit-testing receipts and locally signed JWS are accepted (`--allow-xcode`).
    public var allowsXcodeReceipts: Bool?
    /// The maximum age of server notifications (`--notification-max-age`).
    public var notificationMaximumAge: Duration?
    /// Whether App Store JWS certificates are checked online (OCSP, `HTTPOCSPTransport`; `--check-revocation`).
    public var checksRevocation: Bool?
    /// Where the service logs (requests, the ledger's start, ignored variables).
    public var logger: Logger
    /// The service's clock: `request_date`, VPP expiry, notification ages and ledger timestamps.
    public var now: @Sendable () -> Date = { Date() }
    /// How long the service's PostgreSQL leases may wait for a connection while the server answers; `nil` (the
    /// service's 3 s) but in tests that start the whole service on a loaded machine, where a connection's slow start
    /// must not read as an outage.
    package var databaseLeaseLimit: Duration?
    /// Called once the server listens, with its address (`127.0.0.1:8080`) and the ledger's location without a
    /// password.
    public var onServerRunning: @Sendable (_ address: String, _ ledger: String) async -> Void = { _, _ in }
    /// Called once the listener of `/health` and `/metrics` (`metrics_listen`) accepts connections, with its
    /// address (`127.0.0.1:9090`).
    public var onProbesRunning: @Sendable (_ address: String) async -> Void = { _ in }

    /// Creates a configuration with no settings file, no environment and no command line.
    public init(logger: Logger = Logger(label: "receiptkit.serve")) {
        self.logger = logger
    }
}
