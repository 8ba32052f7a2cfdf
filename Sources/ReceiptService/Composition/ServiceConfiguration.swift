public import struct Foundation.Date
public import Logging

/// Everything ``buildApplication(configuration:)`` needs to compose the service: a settings file, the values that
/// override it (what `receiptkit serve`'s options set), where to listen, the logger and the clock.
///
/// Precedence, lowest first: ``verifyReceipt``, the settings file (``settingsFile``, a
/// ``ServiceConfigurationFile``), then each override that is not `nil`.
///
/// ```swift
/// var configuration = ServiceConfiguration()
/// configuration.settingsFile = "/etc/receiptkit/serve.json"
/// configuration.database = "postgres://receiptkit@db.internal/receiptkit"
/// let application = try await buildApplication(configuration: configuration)
/// try await application.runService()
/// ```
public struct ServiceConfiguration: Sendable {
    /// What the verifier accepts before the settings file and the overrides adjust it (Apple's root, any app).
    public var verifyReceipt = VerifyReceiptConfiguration()
    /// A JSON settings file (``ServiceConfigurationFile``) read at start; its relative `anchors` are resolved
    /// against its directory.
    public var settingsFile: String?
    /// The address to bind; else the file's `host`, else `127.0.0.1`.
    public var host: String?
    /// The port to bind (0 picks a free one); else the file's `port`, else 8080.
    public var port: Int?
    /// The ledger (`sqlite:PATH`, `sqlite::memory:`, `postgres://…`, see `LedgerLocation`); else the file's
    /// `database`, else `sqlite:receiptkit.sqlite`.
    public var database: String?
    /// Anchor certificate files (DER or PEM) trusted besides the settings file's, relative to the working directory.
    public var anchorFiles: [String] = []
    /// Overrides whether Xcode StoreKit-testing receipts and locally signed JWS are accepted.
    public var allowsXcodeReceipts: Bool?
    /// Overrides the maximum age of server notifications.
    public var notificationMaximumAge: Duration?
    /// Overrides whether App Store JWS certificates are checked online (OCSP, `HTTPOCSPTransport`).
    public var checksRevocation: Bool?
    /// Where the service logs (requests, the ledger's start).
    public var logger: Logger
    /// The service's clock: `request_date`, VPP expiry, notification ages and ledger timestamps.
    public var now: @Sendable () -> Date = { Date() }
    /// Called once the server listens, with its address (`127.0.0.1:8080`) and the ledger's location without a
    /// password.
    public var onServerRunning: @Sendable (_ address: String, _ ledger: String) async -> Void = { _, _ in }

    /// Creates a configuration with no settings file and no overrides.
    public init(logger: Logger = Logger(label: "receiptkit.serve")) {
        self.logger = logger
    }
}
