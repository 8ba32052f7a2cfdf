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
public struct PostgresLedger: BackendLedger, Service {
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
}
