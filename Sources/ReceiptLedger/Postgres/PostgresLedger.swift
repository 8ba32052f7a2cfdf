public import Logging
public import PostgresNIO
public import ServiceLifecycle

/// The shared ledger: PostgreSQL through PostgresNIO, for several service instances behind a load balancer.
///
/// It is a `Service`: run it (in a `ServiceGroup`, or ``run()`` in a task) for its connection pool to work.
///
/// ```swift
/// let ledger = try PostgresLedger(url: "postgres://receiptkit@127.0.0.1:5432/receiptkit")
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await ledger.run() }
///     try await ledger.migrate()
///     …
/// }
/// ```
public struct PostgresLedger: Ledger, Service {
    let operations: LedgerOperations<PostgresBackend>
    /// The connection pool.
    public let client: PostgresClient

    /// Creates a ledger on a PostgresNIO client configuration.
    public init(configuration: PostgresClient.Configuration, logger: Logger = Logger(label: "receiptkit.ledger.postgres")) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.operations = LedgerOperations(backend: PostgresBackend(client: client, logger: logger))
    }

    /// Creates a ledger from a `postgres://user:password@host:port/database?sslmode=disable|prefer|require` URL.
    public init(url: String, logger: Logger = Logger(label: "receiptkit.ledger.postgres")) throws(LedgerError) {
        self.init(configuration: try Self.configuration(url: url), logger: logger)
    }

    /// The client configuration a `postgres://` URL describes, to adjust before creating a ledger (pool size,
    /// `search_path`, TLS settings).
    public static func configuration(url: String) throws(LedgerError) -> PostgresClient.Configuration {
        try PostgresLocation(url: url).configuration()
    }

    /// Runs the connection pool until the task is cancelled or the service group shuts down.
    public func run() async {
        await self.client.run()
    }

    public func migrate() async throws(LedgerError) { try await self.operations.migrate() }
    public func schemaVersion() async throws(LedgerError) -> Int { try await self.operations.schemaVersion() }
    @discardableResult
    public func record(_ receipt: LedgerReceipt) async throws(LedgerError) -> LedgerWriteSummary {
        try await self.operations.record(receipt)
    }
    public func receipt(hash: String) async throws(LedgerError) -> [UInt8]? {
        try await self.operations.receipt(hash: hash)
    }
    public func recordRenewalInfo(_ info: LedgerRenewalInfo) async throws(LedgerError) {
        try await self.operations.recordRenewalInfo(info)
    }
    @discardableResult
    public func recordNotification(_ notification: LedgerNotification) async throws(LedgerError) -> Bool {
        try await self.operations.recordNotification(notification)
    }
    public func snapshot(matching query: LedgerQuery) async throws(LedgerError) -> LedgerSnapshot {
        try await self.operations.snapshot(matching: query)
    }
    public func ping() async throws(LedgerError) { try await self.operations.ping() }
    public func shutdown() async {}
}
