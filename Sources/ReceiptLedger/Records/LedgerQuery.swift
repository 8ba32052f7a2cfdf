public import AppStorePKI
/// Which transactions to look up: one app in one environment, by original transaction ids.
public struct LedgerQuery: Sendable, Hashable {
    /// The environment.
    public var environment: AppStoreEnvironment
    /// The app's bundle identifier (empty for receipts without one).
    public var bundleIdentifier: String
    /// The original transaction ids to look up, each once (the initializer drops repeats: a multi-row upsert that
    /// names one twice fails on PostgreSQL).
    public private(set) var originalTransactionIdentifiers: [String]

    /// Creates a query.
    public init(environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String]) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        var seen = Set<String>()
        self.originalTransactionIdentifiers = originalTransactionIdentifiers.filter { seen.insert($0).inserted }
    }

    /// The query for everything related to `receipt`: its app and the original transaction ids of its purchases.
    public init(receipt: LedgerReceipt) {
        self.init(
            environment: receipt.environment,
            bundleIdentifier: receipt.bundleIdentifier,
            originalTransactionIdentifiers: receipt.originalTransactionIdentifiers
        )
    }
}
