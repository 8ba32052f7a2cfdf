import AppStorePKI
import AppStoreJWS
import AppStoreJWSOCSP
import AppStoreServerAPI
import struct Foundation.URL
public import Hummingbird
import Logging
import NIOCore
import ReceiptKit
import ReceiptLedger
import ServiceLifecycle

/// The verifyReceipt service, composed from `configuration`: the settings read from every source and checked once
/// (``ServiceSettings``), the anchors and keys loaded, the ledger opened (SQLite or PostgreSQL), every collaborator
/// made (``ServiceComponents``), the routes with their middleware and connection limits.
///
/// Run what it returns with `runService()`: the ledger is migrated before the server listens (with
/// `migrate_on_start` false, it must be at this build's schema version instead), PostgreSQL's
/// connection pool runs beside it, and on SIGTERM or SIGINT the server stops gracefully, then the ledger is shut
/// down (as it is when the server cannot start).
///
/// ```swift
/// let application = try await buildApplication(configuration: ServiceConfiguration())
/// try await application.runService()
/// ```
///
/// - Parameter configuration: The settings file, the environment, the command line's settings, the logger and the
///   clock.
/// - Returns: The application; nothing listens until it runs.
/// - Throws: ``ServiceStartupError`` for an unreadable or malformed settings, anchor or App Store Server API key
///   file, a setting out of its rule (named with where it came from), a database location that names none, or a
///   database that cannot be opened.
public func buildApplication(
    configuration: ServiceConfiguration
) async throws(ServiceStartupError) -> some ApplicationProtocol {
    let logger = configuration.logger
    let (settings, unknownVariables) = try configuration.settings()
    for variable in unknownVariables {
        logger.warning("ignoring an environment variable that names no setting", metadata: ["variable": "\(variable)"])
    }
    let accepted = try configuration.accepted(settings)
    // The API clients are made, and their settings checked, before the database is opened.
    let apiClients = try ServiceComponents.apiClients(for: accepted, transport: AsyncHTTPTransport(), now: configuration.now)

    let opened = try await OpenedLedger.open(
        settings.database, snapshotCacheBytes: settings.ledgerSnapshotCacheBytes,
        keepsConnectionsOpen: settings.databaseMaximumConnections, leaseLimit: configuration.databaseLeaseLimit,
        logger: logger)
    let ledger = opened.ledger

    let components = ServiceComponents(
        configuration: accepted, ledger: ledger, metrics: ServiceMetrics(), apiClients: apiClients, logger: logger,
        now: configuration.now)
    var server = VerifyReceiptServer(components: components, host: settings.host, port: settings.port, logger: logger)
    // Beside the server: the ledger's lifecycle and PostgreSQL's pool (the server adds its components' refresh), and
    // the probes' listener when they have one of their own.
    var services = [LedgerLifecycle(ledger: ledger) as any Service] + opened.services
    if let probes = ProbeListener(settings.metricsListen) {
        server.servesProbes = false
        let onProbesRunning = configuration.onProbesRunning
        let probeApplication = server.probeApplication(probes) { channel in
            let address = channel.localAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
            logger.info("serving /health and /metrics", metadata: ["listen": .string("http://\(address)")])
            await onProbesRunning(address)
        }
        services.append(ProbeListenerService(application: probeApplication, listener: probes))
    }
    let description = opened.location.description
    let onServerRunning = configuration.onServerRunning
    var application = server.application(services: services) { channel in
        let address = channel.localAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        await onServerRunning(address, description)
    }
    application.beforeServerStarts {
        let version = try await OpenedLedger.prepareSchema(
            of: ledger, migrates: settings.migratesOnStart, location: description
        ).get()
        // What is about to serve, in one line: the same summary `serve --check-config` prints.
        let summary = ServiceCheck(
            settings: settings, accepted: accepted, clients: apiClients, database: opened.location,
            schemaVersion: version, unknownVariables: unknownVariables)
        logger.info("service starting", metadata: summary.logMetadata)
        if !summary.listensOnLoopbackOnly {
            logger.notice(
                """
                listening beyond this machine: only POST /notifications/v2 needs to be reachable from the internet \
                (by Apple); keep the other routes behind your network or proxy
                """,
                metadata: ["listen": .string("http://\(summary.listeningAddress)")])
        }
        if summary.allowedBundleIdentifiers.isEmpty {
            logger.warning(
                """
                allowed_bundle_ids is not set: receipts of any app are validated and recorded in the ledger; a \
                production service names its apps (others are answered 21010 and never stored)
                """)
        }
        if summary.allowsXcodeReceipts {
            logger.warning("Xcode receipts and locally signed JWS are accepted: never in production")
        }
    }
    return application
}
