import AppStoreServerAPI
public import Logging
import ReceiptLedger

/// What `receiptkit serve --check-config` found once every source was read and checked, every file named loaded
/// (anchors, App Store Server API keys) and the database opened and asked its schema version — without serving.
/// `serve` logs the same summary at info when it starts (``logMetadata``).
public struct ServiceCheck: Sendable {
    /// `host:port` the service would listen on.
    public let listeningAddress: String
    /// The database, without its password.
    public let database: String
    /// The schema version the database is at (0 for an empty one).
    public let schemaVersion: Int
    /// The schema version this build writes: `serve` migrates a lower one, and refuses a higher one.
    public let latestSchemaVersion: Int
    /// The apps `/verifyReceipt` answers for (empty: every app).
    public let allowedBundleIdentifiers: [String]
    /// The apps refreshed from the App Store Server API, as `bundle id (environment)`.
    public let refreshedApps: [String]
    /// The apps whose data the mirror of the App Store Server API serves (those with a key, private or public), as
    /// `bundle id (environment)`.
    public let mirroredApps: [String]
    /// Where notifications are sent on, as `name (bundle id)` (never the URL, which may hold a credential).
    public let forwardingTargets: [String]
    /// How many anchors are trusted besides Apple's roots.
    public let extraAnchors: Int
    /// Whether App Store JWS certificates are checked online (OCSP).
    public let checksRevocation: Bool
    /// `RECEIPTKIT_` environment variables that name no setting (ignored).
    public let unknownVariables: [String]
    /// Whether Xcode receipts and locally signed JWS are accepted (never in production).
    public let allowsXcodeReceipts: Bool
    /// The listener of `/health` and `/metrics` when they have their own (`metrics_listen`), else `nil`.
    public let probeListener: String?
    /// Whether `serve` migrates the schema when it starts (`migrate_on_start`).
    public let migratesOnStart: Bool
    /// Whether the address is this machine's loopback only (`127.0.0.1`, `::1`, `localhost`).
    public let listensOnLoopbackOnly: Bool

    /// Whether `POST /jws/verify` is served (`jws_verify_endpoint`).
    public let servesJWSVerify: Bool
    /// Whether `GET /v1/entitlements` is served (`admin_tokens` names a token).
    public let servesEntitlements: Bool

    /// The routes served by default, and who must reach them.
    public static let routes = Self.routes(probes: nil, jws: false)

    /// The routes of the main listener and who must reach them, and where the probes are when they have their own.
    public var servedRoutes: String {
        Self.routes(
            probes: self.probeListener, jws: self.servesJWSVerify, mirror: !self.mirroredApps.isEmpty,
            entitlements: self.servesEntitlements)
    }

    private static func routes(probes: String?, jws: Bool, mirror: Bool = false, entitlements: Bool = false) -> String {
        let inside = "POST /verifyReceipt, POST /sandbox/verifyReceipt" + (jws ? ", POST /jws/verify" : "")
            + (mirror
                ? ", " + VerifyReceiptServer.mirrorPaths.flatMap { ["GET /\($0)/{id}", "GET /sandbox/\($0)/{id}"] }
                    .joined(separator: ", ")
                : "")
            + (entitlements ? ", GET /v1/entitlements (admin token)" : "")
        let probeRoutes = "GET /health, GET /metrics"
        return "POST /notifications/v2 (Apple must reach it); "
            + (probes.map { "\(inside) (your network only); \(probeRoutes) on http://\($0) only" }
                ?? "\(inside), \(probeRoutes) (your network only)")
    }

    /// The summary of what `settings` and the files they name made, and the database at `schemaVersion`.
    init(
        settings: ServiceSettings,
        accepted: VerifyReceiptConfiguration,
        clients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]],
        database: LedgerLocation,
        schemaVersion: Int,
        unknownVariables: [String]
    ) {
        self.listeningAddress = settings.listeningAddress
        self.database = database.description
        self.schemaVersion = schemaVersion
        self.latestSchemaVersion = LedgerSchemaVersion.latest
        self.allowedBundleIdentifiers = (accepted.allowedBundleIdentifiers ?? []).sorted()
        self.refreshedApps = clients.flatMap { environment, apps in apps.keys.map { "\($0) (\(environment.rawValue))" } }
            .sorted()
        self.mirroredApps = accepted.appStoreServerAPI.apps.flatMap { app in
            app.tokenKeys.keys.map { "\(app.bundleIdentifier) (\($0.rawValue))" }
        }.sorted()
        self.forwardingTargets = accepted.notifications.forwarding.targets.map { "\($0.name) (\($0.bundleIdentifier))" }
        self.extraAnchors = accepted.anchors.certificates.count
        self.checksRevocation = accepted.jwsRevocationCheck != nil
        self.servesJWSVerify = accepted.servesJWSVerify
        self.servesEntitlements = !accepted.adminTokens.isEmpty
        self.unknownVariables = unknownVariables
        self.allowsXcodeReceipts = accepted.allowsXcodeReceipts
        self.migratesOnStart = settings.migratesOnStart
        self.probeListener = ProbeListener(settings.metricsListen)?.description
        self.listensOnLoopbackOnly = ["127.0.0.1", "::1", "localhost"].contains(settings.host)
    }

    /// One line per finding, for a person.
    public var lines: [String] {
        let schema: String =
            switch self.schemaVersion {
            case self.latestSchemaVersion: "schema version \(self.schemaVersion), this build's"
            case 0 where self.migratesOnStart: "empty: serve creates schema version \(self.latestSchemaVersion)"
            case ..<self.latestSchemaVersion where !self.migratesOnStart:
                "schema version \(self.schemaVersion): migrate_on_start is false, so serve refuses it until "
                    + "receiptkit serve --migrate moves it to \(self.latestSchemaVersion)"
            case ..<self.latestSchemaVersion:
                "schema version \(self.schemaVersion): serve migrates it to \(self.latestSchemaVersion) (one-way; back it up first)"
            default:
                "schema version \(self.schemaVersion), newer than this build's \(self.latestSchemaVersion): serve refuses it"
            }
        let answered = self.allowedBundleIdentifiers.isEmpty ? "every app" : self.allowedBundleIdentifiers.joined(separator: ", ")
        let refreshed = self.refreshedApps.isEmpty ? "no app refreshed" : self.refreshedApps.joined(separator: ", ")
        let anchors = self.extraAnchors > 0 ? "Apple's roots and \(self.extraAnchors) more" : "Apple's roots"
        var lines: [String] = []
        lines.append("listen: http://\(self.listeningAddress)")
        if let probes = self.probeListener { lines.append("health and metrics: http://\(probes) (not on the main listener)") }
        lines.append("database: \(self.database) (\(schema))")
        lines.append("apps answered: \(answered)")
        lines.append("App Store Server API: \(refreshed)")
        if !self.mirroredApps.isEmpty {
            lines.append("App Store Server API mirror: \(self.mirroredApps.joined(separator: ", "))")
        }
        if !self.forwardingTargets.isEmpty {
            lines.append("notifications sent on to: \(self.forwardingTargets.joined(separator: ", "))")
        }
        lines.append("anchors: \(anchors)")
        lines.append("revocation check (OCSP): \(self.checksRevocation ? "on" : "off")")
        if self.allowsXcodeReceipts { lines.append("Xcode receipts and locally signed JWS: accepted (never in production)") }
        if !self.unknownVariables.isEmpty {
            lines.append("ignored (no such setting): " + self.unknownVariables.joined(separator: ", "))
        }
        return lines
    }

    /// The summary as the fields of `serve`'s start-up log line (no secret: keys and shared secrets are counted by
    /// the apps they serve, never shown).
    public var logMetadata: Logger.Metadata {
        [
            "listen": .string("http://\(self.listeningAddress)"),
            "database": .string(self.database),
            "schema_version": .stringConvertible(self.schemaVersion),
            "apps_answered": .string(self.allowedBundleIdentifiers.isEmpty ? "every app" : self.allowedBundleIdentifiers.joined(separator: ",")),
            "app_store_server_api": .string(self.refreshedApps.isEmpty ? "none" : self.refreshedApps.joined(separator: ",")),
            "app_store_server_api_mirror": .string(
                self.mirroredApps.isEmpty ? "none" : self.mirroredApps.joined(separator: ",")),
            "notification_targets": .string(
                self.forwardingTargets.isEmpty ? "none" : self.forwardingTargets.joined(separator: ",")),
            "extra_anchors": .stringConvertible(self.extraAnchors),
            "revocation_check": .string(self.checksRevocation ? "on" : "off"),
            "xcode_receipts": .string(self.allowsXcodeReceipts ? "accepted" : "refused"),
            "routes": .string(self.servedRoutes),
        ]
    }

    /// Whether `serve` would start on this database: its schema is not newer than this build's, and is this build's
    /// when `serve` does not migrate it.
    public var isServable: Bool {
        self.migratesOnStart ? self.schemaVersion <= self.latestSchemaVersion : self.schemaVersion == self.latestSchemaVersion
    }
}
