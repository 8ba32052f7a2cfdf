public import Logging
public import PostgresNIO
public import ServiceLifecycle

/// The shared ledger: PostgreSQL through PostgresNIO, for several service instances behind a load balancer.
///
/// It is a `Service`: run it (in a `ServiceGroup`, or ``run()`` in a task) for its connection pool to work, and for
/// snapshots to be cached: the schema's triggers announce every change on a channel, and one pooled connection
/// listens to it, so a snapshot kept here is dropped when any instance writes about it (when the notification
/// arrives, a few milliseconds after the commit elsewhere; at once for this instance's own writes). While that
/// connection is down nothing is cached, nor with a pool of one connection. `LISTEN` needs a session of its own:
/// behind a pooler in transaction mode (PgBouncer's `pool_mode = transaction`) notifications are not delivered, so
/// pass `snapshotCacheBytes: 0` there.
///
/// ```swift
/// let ledger = try PostgresLedger(url: "postgres://receiptkit@127.0.0.1:5432/receiptkit")
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await ledger.run() }
///     try await ledger.migrate()
///     …
/// }
/// ```
public struct PostgresLedger: BackendLedger, Service {
    let operations: LedgerOperations<PostgresBackend>
    private let pools: PostgresPools
    let logger: Logger
    /// Whether the change listener runs (a pool of at least two connections).
    let listens: Bool

    /// Creates a ledger on a PostgresNIO client configuration.
    /// - Parameters:
    ///   - configuration: The pool's configuration.
    ///   - snapshotCacheBytes: The most memory snapshots read before may hold (16 MiB by default; 0 reads every
    ///     snapshot from the database). They are kept only while the change listener hears every instance's writes.
    ///   - logger: Where PostgresNIO and the change listener log.
    public init(
        configuration: PostgresClient.Configuration,
        snapshotCacheBytes: Int = 16 << 20,
        logger: Logger = Logger(label: "receiptkit.ledger.postgres")
    ) {
        self.init(configuration: configuration, diagnosis: nil, snapshotCacheBytes: snapshotCacheBytes, logger: logger)
    }

    /// A ledger whose leases may wait `answeringLeaseLimit` for a connection while the server answers (3 s
    /// otherwise): the test suites' ledgers, which share a loaded machine's cores with hundreds of others and
    /// PostgreSQL itself, so that a connection's slow start is not read as an outage. The tests of the limits
    /// themselves use the default.
    package init(
        configuration: PostgresClient.Configuration, answeringLeaseLimit: Duration,
        logger: Logger = Logger(label: "receiptkit.ledger.postgres")
    ) {
        self.init(
            configuration: configuration, diagnosis: nil, snapshotCacheBytes: LedgerSnapshotCache.defaultBytes, logger: logger,
            answeringLeaseLimit: answeringLeaseLimit)
    }

    init(
        configuration: PostgresClient.Configuration,
        diagnosis: PostgresConnectionDiagnosis?,
        snapshotCacheBytes: Int,
        logger: Logger,
        answeringLeaseLimit: Duration = PostgresReachability.answeringLimit
    ) {
        var configuration = configuration
        // The snapshot read is planned once per connection and kept (its plan does not depend on the tables' size):
        // left to choose, PostgreSQL would plan it again on every read, a custom plan sized to the id list looking
        // cheaper than the kept one — most of the database's time on a read. The other statements are looked up or
        // upserted by key (and the claims' expiry sweep runs over a small table): a plan made without their values is
        // the one their values would give. PostgreSQL 12 or later (the setting's first version).
        if !configuration.options.additionalStartupParameters.contains(where: { $0.0 == "plan_cache_mode" }) {
            configuration.options.additionalStartupParameters.append(("plan_cache_mode", "force_generic_plan"))
        }
        let pools = PostgresPools(configuration: configuration, logger: logger)
        self.pools = pools
        self.logger = logger
        self.listens = configuration.options.maximumConnections >= 2
        self.operations = LedgerOperations(
            backend: PostgresBackend(
                pools: pools, logger: logger, diagnosis: diagnosis, answeringLeaseLimit: answeringLeaseLimit),
            snapshotCacheBytes: snapshotCacheBytes)
    }

    /// Creates a ledger from a `postgres://user:password@host:port/database?sslmode=disable|prefer|require` URL.
    /// - Parameters:
    ///   - url: The server, the role and the database, as above.
    ///   - snapshotCacheBytes: The most memory snapshots read before may hold (16 MiB by default; 0 reads every
    ///     snapshot from the database).
    ///   - keepsConnectionsOpen: Whether the pool opens all its connections at once and keeps them
    ///     (``keepingConnectionsOpen(_:)``): what a long-running service under load wants; a short-lived use (a
    ///     migration, a check) does not.
    ///   - maximumConnections: The pool's size (`nil`: PostgresNIO's default, 20); at least 1.
    ///   - logger: Where PostgresNIO and the change listener log.
    public init(
        url: String,
        snapshotCacheBytes: Int = 16 << 20,
        keepsConnectionsOpen: Bool = false,
        maximumConnections: Int? = nil,
        logger: Logger = Logger(label: "receiptkit.ledger.postgres")
    ) throws(LedgerError) {
        try self.init(
            url: url, snapshotCacheBytes: snapshotCacheBytes, keepsConnectionsOpen: keepsConnectionsOpen,
            maximumConnections: maximumConnections, answeringLeaseLimit: nil, logger: logger)
    }

    /// A ledger from a URL whose leases may wait `answeringLeaseLimit` while the server answers (`nil`: 3 s): the
    /// service's ledger in tests that start the whole service on a loaded machine (`ServiceConfiguration`'s package
    /// `databaseLeaseLimit`).
    package init(
        url: String,
        snapshotCacheBytes: Int,
        keepsConnectionsOpen: Bool,
        maximumConnections: Int?,
        answeringLeaseLimit: Duration?,
        logger: Logger
    ) throws(LedgerError) {
        let location = try PostgresLocation(url: url)
        // The URL says how to open one connection directly: when the pool has none, that connection says why.
        let diagnosis = location.connectionConfiguration().map {
            PostgresConnectionDiagnosis(configuration: $0, endpoint: "\(location.host):\(location.port)", logger: logger)
        }
        var configuration = location.configuration()
        if let maximumConnections {
            configuration.options.maximumConnections = max(1, maximumConnections)
        }
        self.init(
            configuration: keepsConnectionsOpen ? Self.keepingConnectionsOpen(configuration) : configuration,
            diagnosis: diagnosis, snapshotCacheBytes: snapshotCacheBytes, logger: logger,
            answeringLeaseLimit: answeringLeaseLimit ?? PostgresReachability.answeringLimit)
    }

    /// `configuration` with every connection of the pool opened at once and kept, none closed for being idle, and
    /// no keep-alive query: PostgresNIO's pool schedules an idle-timeout timer (a minute) for each connection beyond
    /// its minimum and a keep-alive timer (30 seconds) for every connection, each time the connection goes back to
    /// the pool, and a timer cancelled at the next lease stays allocated until its deadline — under load, tens of
    /// thousands of them, the service's memory growing with its request rate. With the minimum at the maximum and no
    /// keep-alive query the pool schedules none. Idle connections are kept alive by TCP instead: the server sends
    /// keep-alive probes after 60 idle seconds (`tcp_keepalives_idle`, every 10 s, 6 unanswered end the session), so
    /// a firewall or NAT in between keeps the connection, and a connection the server or network closed is replaced
    /// by the pool when it sees it close.
    public static func keepingConnectionsOpen(_ configuration: PostgresClient.Configuration) -> PostgresClient.Configuration {
        var configuration = configuration
        configuration.options.minimumConnections = configuration.options.maximumConnections
        configuration.options.keepAliveBehavior = nil
        for (name, value) in [("tcp_keepalives_idle", "60"), ("tcp_keepalives_interval", "10"), ("tcp_keepalives_count", "6")]
        where !configuration.options.additionalStartupParameters.contains(where: { $0.0 == name }) {
            configuration.options.additionalStartupParameters.append((name, value))
        }
        return configuration
    }

    /// The client configuration a `postgres://` URL describes, to adjust before creating a ledger (pool size,
    /// `search_path`, TLS settings).
    public static func configuration(url: String) throws(LedgerError) -> PostgresClient.Configuration {
        try PostgresLocation(url: url).configuration()
    }

    /// The connection pool in use now. While the server is unreachable it is replaced by a fresh one as soon as one
    /// connects (and the one replaced shut down), so that the ledger answers as soon as the server is back, whatever
    /// the outage's length: lease from it at once rather than keep it.
    public var client: PostgresClient { self.pools.current }

    /// Runs the connection pool until the task is cancelled or the service group shuts down (a fresh one tried every
    /// second while the server is unreachable), and with it the listener that keeps the snapshot cache true to other
    /// instances' writes (one pooled connection).
    public func run() async {
        let reachability = self.operations.backend.reachability
        let listener = PostgresChangeListener(
            pools: self.pools, reachability: reachability, cache: self.operations.snapshots, logger: self.logger)
        // The listener is not a child the pool's end must wait for: cancelled when the pool has ended, it closes its
        // connection and stops, and nothing it could still be waiting for (a lease from a pool shutting down) can
        // hold up the shutdown. It also stops by itself at a graceful shutdown, before the pool, which requests
        // still being answered need.
        // It holds one pooled connection: a pool of one is left to the requests, and nothing is cached.
        let runPools = { await self.pools.run(isLost: { reachability.poolLooksLost }) }
        guard self.listens else {
            await runPools()
            return
        }
        let listening = Task { await listener.run() }
        await withTaskCancellationHandler {
            await runPools()
        } onCancel: {
            listening.cancel()
        }
        listening.cancel()
    }
}

extension PostgresLedger {
    /// Instances share the database: their App Store Server API refreshes, backoffs and pauses are coordinated in
    /// it (`receiptkit_api_claims`).
    public var coordinatesAPIRefreshes: Bool { true }

    public func claimAPIRefresh(_ claim: LedgerAPIClaim) async throws(LedgerError) -> LedgerAPIClaim.Answer {
        try await self.operations.claimAPIRefresh(claim)
    }

    /// Instances share the database: one at a time runs an app's notification backfill.
    public func leaseNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) -> Bool {
        try await self.operations.leaseNotificationBackfill(lease)
    }

    public func endNotificationBackfill(_ lease: LedgerBackfillLease) async throws(LedgerError) {
        try await self.operations.endNotificationBackfill(lease)
    }

    public func endAPIRefresh(_ claim: LedgerAPIClaim, failedUntilMilliseconds: Int64?) async throws(LedgerError) {
        try await self.operations.endAPIRefresh(claim, failedUntilMilliseconds: failedUntilMilliseconds)
    }

    public func pauseAPIApp(
        environment: AppStoreEnvironment, bundleIdentifier: String, untilMilliseconds: Int64
    ) async throws(LedgerError) {
        try await self.operations.pauseAPIApp(
            environment: environment, bundleIdentifier: bundleIdentifier, untilMilliseconds: untilMilliseconds)
    }
}
