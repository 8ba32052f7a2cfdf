public import ReceiptKitTesting
public import AppStorePKI
public import struct Foundation.Date
import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import ServiceLifecycle

/// A local App Store Server API for tests: Apple's endpoints, paths and JSON on 127.0.0.1, answering from a
/// ``SimulatedAppStore`` with JWS signed by a `JWSTestAuthority` (ReceiptKitTesting) — so a client is tested over real HTTP without
/// reaching Apple, including Apple's bearer-token rules, paging, errors, rate limits and outages.
///
/// ```swift
/// let store = SimulatedAppStore()
/// let key = P256.Signing.PrivateKey()
/// store.register(SimulatedAPIKey(keyID: "KEY1", issuerID: "issuer", publicKey: key.publicKey))
/// store.addApp(bundleIdentifier: "com.example.app", appAppleID: 1234)
/// try store.add(transaction: JWSSamplePayload.transaction(bundleIdentifier: "com.example.app", productID: "pro",
///                                                         transactionID: "1000000000000001",
///                                                         purchaseDate: purchased, signedDate: purchased))
/// let simulator = AppStoreServerSimulator(store: store, authority: try JWSTestAuthority(), now: { pinned })
/// try await simulator.run { baseURL in
///     // GET \(baseURL)/inApps/v2/history/1000000000000001 with "Authorization: Bearer <ES256 JWT by key>"
/// }
/// ```
///
/// Signed values verify with `JWSVerificationPolicy(anchors: AppStoreTrustAnchors([authority.root.certificate]))`.
/// The clock is an input: token lifetimes, `signedDate`, subscription statuses and notification-history windows
/// are judged at `now()`. See <doc:SimulatingTheAppStoreServerAPI>.
public struct AppStoreServerSimulator: Sendable {
    /// What the simulator knows and how it misbehaves; change it while the server runs.
    public let store: SimulatedAppStore
    /// Signs transactions, renewal info and notifications.
    public var authority: JWSTestAuthority
    /// The environment this host serves (Production or Sandbox): only transactions of that environment are found,
    /// and responses report it.
    public var environment: AppStoreEnvironment
    /// The simulator's clock.
    public var now: @Sendable () -> Date
    /// Where the server logs (nothing below `warning` by default).
    public var logger: Logger

    /// Creates a simulator; nothing listens until ``run(port:_:)``.
    public init(
        store: SimulatedAppStore = SimulatedAppStore(),
        authority: JWSTestAuthority,
        environment: AppStoreEnvironment = .production,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.authority = authority
        self.environment = environment
        self.now = now
        var logger = Logger(label: "receiptkit.app-store-server-simulator")
        logger.logLevel = .warning
        self.logger = logger
    }

    /// Listens on 127.0.0.1 on `port` (a free one when 0), runs `body` with the base URL (`http://127.0.0.1:PORT`,
    /// no trailing slash), then shuts the server down.
    /// - Throws: ``SimulatorError`` with ``SimulatorError/Code/notStarted`` when the port could not be bound, or
    ///   what `body` throws.
    public func run<T: Sendable>(
        port: Int = 0, _ body: @Sendable (_ baseURL: String) async throws -> T
    ) async throws -> T {
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let store = self.store
        let server = HTTPServerBuilder { responder in
            SimulatorChildChannel(
                http1: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: .seconds(30))),
                store: store)
        }
        let application = Application(
            router: self.router(),
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname("127.0.0.1", port: port), serverName: "AppStoreServerSimulator"),
            onServerRunning: { channel in
                announce.yield(channel.localAddress?.port ?? 0)
                announce.finish()
            },
            logger: self.logger
        )
        let services = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: self.logger))
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask {
                defer { announce.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                throw SimulatorError(
                    .notStarted, port == 0 ? "the simulator did not report a listening port" : "127.0.0.1:\(port) could not be bound")
            }
            do {
                let value = try await body("http://127.0.0.1:\(port)")
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
        }
    }
}
