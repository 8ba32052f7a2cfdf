public import Logging
import AppStorePKI
import AppStoreJWS
public import AppStoreServerAPI
public import struct Foundation.Date
import ReceiptKit
public import ReceiptLedger
public import ServiceLifecycle

/// The service's collaborators, each built here and nowhere else from one configuration: the composition root
/// ``buildApplication(configuration:)`` uses, and tests and other servers too.
///
/// It builds the receipt validator and the JWS verifier (each with its trust cache), the validation limiter, the
/// ledger-key memo, the App Store Server API clients and the bridge that refreshes `/verifyReceipt` from them, the
/// in-flight body budget and the connection cap, and hands each to what uses it. The App Store Server API refresh is
/// a lifecycle service (``services``) that ``VerifyReceiptServer/application(services:onServerRunning:)`` runs beside
/// the server; while it does not run, nothing is fetched and answers come from the ledger.
///
/// ```swift
/// let components = try ServiceComponents(configuration: configuration, ledger: ledger, now: { Date() })
/// let server = VerifyReceiptServer(components: components, host: "127.0.0.1", port: 8080, logger: logger)
/// try await server.application().runService()
/// ```
public struct ServiceComponents: Sendable {
    /// What the service accepts.
    public let configuration: VerifyReceiptConfiguration
    /// Where transactions are remembered.
    public let ledger: any Ledger
    /// Where requests, connections, the ledger and the API refresh are counted.
    public let metrics: ServiceMetrics
    /// verifyReceipt, notifications and JWS verification without HTTP.
    public let verifier: ReceiptVerifier
    /// The lifecycle services to run beside the server: the App Store Server API refresh and the notification
    /// backfill (unless it is off) when an app is configured with a private key, else none. Each runs in one
    /// application at a time.
    public let services: [any Service]
    /// The notification backfill of the apps with an App Store Server API client, whether or not it runs on a
    /// schedule (``backfillNotifications(since:onlyFailures:progress:)``).
    let backfill: NotificationBackfillService?
    /// What sends notifications on to the apps' targets; `nil` without targets.
    let forwarder: NotificationForwarder?
    /// The bytes of request bodies held at once, shared by every request.
    let bodyBudget: BodyBudget
    /// The open connections, against their cap.
    let connections: OpenConnections

    /// Builds every collaborator of the service.
    /// - Parameters:
    ///   - configuration: What to accept, and how much work to take on.
    ///   - ledger: The transaction ledger (migrated before requests arrive).
    ///   - metrics: Where to count; a fresh registry by default.
    ///   - apiTransport: How the App Store Server API clients send requests; AsyncHTTPClient by default.
    ///   - forwardingTransport: How notifications are sent on to their targets; by default AsyncHTTPClient with a
    ///     connection for each attempt in flight (`AsyncHTTPTransport.forManyRequestsToOneHost`).
    ///   - logger: Where the App Store Server API refresh says an app's key was refused, it was rate limited or Apple
    ///     was unavailable, and when it answers again.
    ///   - now: The service's clock: `request_date`, VPP expiry, notification ages, ledger and refresh times, bearer
    ///     tokens.
    /// - Throws: ``ServiceStartupError`` with ``ServiceStartupError/Code/invalidSetting`` for a setting out of its
    ///   rule (the rules ``ServiceSettings`` checks every source's values against), or an App Store Server API
    ///   client setting the client refuses.
    public init(
        configuration: VerifyReceiptConfiguration,
        ledger: any Ledger,
        metrics: ServiceMetrics = ServiceMetrics(),
        apiTransport: any HTTPTransport = AsyncHTTPTransport(),
        forwardingTransport: any HTTPTransport = AsyncHTTPTransport.forManyRequestsToOneHost,
        logger: Logger = Logger(label: "receiptkit.service"),
        now: @escaping @Sendable () -> Date
    ) throws(ServiceStartupError) {
        try ServiceSettings(verifyReceipt: configuration).validate()
        self.init(
            configuration: configuration,
            ledger: ledger,
            metrics: metrics,
            apiClients: try Self.apiClients(for: configuration, transport: apiTransport, now: now),
            forwardingTransport: forwardingTransport,
            logger: logger,
            now: now
        )
    }

    /// Builds every collaborator of the service around API clients made already (``apiClients(for:transport:now:)``).
    init(
        configuration: VerifyReceiptConfiguration,
        ledger: any Ledger,
        metrics: ServiceMetrics,
        apiClients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]],
        forwardingTransport: any HTTPTransport = AsyncHTTPTransport.forManyRequestsToOneHost,
        logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.ledger = ledger
        self.metrics = metrics
        let revocationCheck = Self.revocationCheck(of: configuration)
        let bridge =
            apiClients.isEmpty
            ? nil
            : AppStoreServerAPIBridge(
                configuration: configuration.appStoreServerAPI, clients: apiClients, ledger: ledger, metrics: metrics,
                logger: logger, now: now)
        let forwarding = configuration.notifications.forwarding
        let outbox = forwarding.targets.isEmpty ? nil : OutboxSignal()
        self.verifier = ReceiptVerifier(
            configuration: configuration,
            ledger: ledger,
            validator: ReceiptValidator(
                policy: ReceiptValidationPolicy(
                    anchors: configuration.anchors,
                    allowsXcodeReceipts: configuration.allowsXcodeReceipts
                ),
                cache: AppStoreTrustCache(),
                decodingConfiguration: configuration.decodingConfiguration
            ),
            jwsVerifier: JWSVerifier(
                policy: JWSVerificationPolicy(
                    anchors: configuration.anchors,
                    allowsLocalEnvironments: configuration.allowsXcodeReceipts,
                    revocationCheck: revocationCheck
                ),
                cache: AppStoreTrustCache()
            ),
            limiter: ValidationLimiter(permits: max(1, configuration.maximumConcurrentValidations)),
            receiptHashes: ReceiptHashMemo(),
            metrics: metrics,
            refresher: bridge,
            outbox: outbox,
            now: now
        )
        let backfill =
            apiClients.isEmpty
            ? nil
            : NotificationBackfillService(
                configuration: configuration.notifications.backfill, clients: apiClients,
                requestBudget: configuration.appStoreServerAPI.retryPolicy.maximumTotalTime, verifier: self.verifier,
                logger: logger, now: now)
        self.backfill = backfill
        var services = bridge.map { [$0 as any Service] } ?? []
        if let backfill, configuration.notifications.backfill.isEnabled { services.append(backfill) }
        self.forwarder = outbox.map { signal in
            NotificationForwarder(
                configuration: forwarding, ledger: ledger, transport: forwardingTransport, metrics: metrics, signal: signal,
                logger: logger, now: now)
        }
        if let forwarder = self.forwarder { services.append(forwarder) }
        self.services = services
        self.bodyBudget = BodyBudget(
            limit: configuration.maximumInFlightBodyBytes, reservePercent: configuration.bodyReservePercent,
            addressShare: configuration.maximumInFlightBodyBytesPerAddress, largestBody: configuration.maximumBodySize,
            metrics: metrics)
        self.connections = OpenConnections(
            limit: configuration.maximumConnections, addressLimit: configuration.maximumConnectionsPerAddress,
            metrics: metrics)
    }

    /// The configuration's revocation check, its network waits outside the validation limiter
    /// (``NetworkWaitScope``). Copies share its verdicts: every verifier of the service, and its API clients.
    static func revocationCheck(of configuration: VerifyReceiptConfiguration) -> JWSRevocationCheck? {
        guard var check = configuration.jwsRevocationCheck else { return nil }
        check.waitScope = NetworkWaitScope()
        return check
    }

    /// A client per environment and bundle id of `configuration`'s App Store Server API apps (the first entry wins
    /// for a bundle id given twice; every entry's settings are checked); none when no app is configured.
    static func apiClients(
        for configuration: VerifyReceiptConfiguration,
        transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date
    ) throws(ServiceStartupError) -> [AppStoreEnvironment: [String: AppStoreServerAPIClient]] {
        let settings = configuration.appStoreServerAPI
        guard !settings.apps.isEmpty else { return [:] }
        let runtime = APIClientRuntime(
            now: now,
            sleep: { duration in try await Task.sleep(for: duration) },
            random: { Double.random(in: 0..<1) }
        )
        var clients: [AppStoreEnvironment: [String: AppStoreServerAPIClient]] = [:]
        let revocationCheck = Self.revocationCheck(of: configuration)
        for app in settings.apps {
            for environment in [AppStoreEnvironment.production, .sandbox] {
                guard var client = app.client(for: environment) else { continue }
                // Signed data from the API passes what any other signed data must: the service's anchors and
                // revocation check.
                client.verificationPolicy.anchors = configuration.anchors
                client.verificationPolicy.revocationCheck = revocationCheck
                client.retryPolicy = settings.retryPolicy
                client.timeout = settings.requestTimeout
                do throws(AppStoreServerAPIError) {
                    // Made for every entry, so that a later entry's settings are checked too; the first is kept.
                    let made = try AppStoreServerAPIClient(configuration: client, transport: transport, runtime: runtime)
                    if clients[environment]?[client.bundleIdentifier] == nil {
                        clients[environment, default: [:]][client.bundleIdentifier] = made
                    }
                } catch {
                    throw ServiceStartupError(.invalidSetting, "appStoreServerAPI: \(error.reason)")
                }
            }
        }
        return clients
    }
}

extension ServiceComponents {
    /// Runs one notification backfill window for every app with an App Store Server API client (a private key),
    /// in turn — what the service does at start and on its schedule, and `receiptkit notifications backfill` once:
    /// each notification found is recorded as a posted one is, and a window that completes moves the app's cursor.
    /// - Parameters:
    ///   - since: Where the windows start (at most Apple's 180 days ago); `nil`: where each app's cursor says.
    ///   - onlyFailures: Only the notifications Apple could not deliver; the cursor does not move.
    ///   - progress: Each app's report so far, after each page.
    /// - Returns: A report per app and environment, in order; none when no app has a client.
    public func backfillNotifications(
        since: Date? = nil, onlyFailures: Bool = false,
        progress: @escaping @Sendable (NotificationBackfillReport) -> Void = { _ in }
    ) async -> [NotificationBackfillReport] {
        await self.backfill?.runWindows(since: since, onlyFailures: onlyFailures, progress: progress) ?? []
    }
}
