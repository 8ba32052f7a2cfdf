/// One versioned step of the ledger's schema. Versions are applied in order, each in the transaction that records
/// it in `receiptkit_schema`, so a database is always at exactly one version.
struct LedgerMigration: Sendable {
    let version: Int
    let description: String
    let statements: @Sendable (SQLDialect) -> [String]

    /// Every migration, oldest first. Append; never edit one that has shipped.
    static let all: [LedgerMigration] = [
        LedgerMigration(version: 1, description: "receipts, transactions, renewal info") { dialect in
            [
                """
                CREATE TABLE receiptkit_receipts (
                    receipt_hash TEXT PRIMARY KEY,
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    first_seen_ms BIGINT NOT NULL,
                    receipt \(dialect.blobType) NOT NULL
                )
                """,
                """
                CREATE TABLE receiptkit_transactions (
                    environment TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    purchase_ms BIGINT,
                    expires_ms BIGINT,
                    cancellation_ms BIGINT,
                    receipt_hash TEXT NOT NULL,
                    receipt_created_ms BIGINT NOT NULL,
                    purchase_json TEXT NOT NULL,
                    PRIMARY KEY (environment, bundle_id, transaction_id)
                )
                """,
                """
                CREATE INDEX receiptkit_transactions_by_original
                    ON receiptkit_transactions (environment, bundle_id, original_transaction_id)
                """,
                """
                CREATE TABLE receiptkit_renewal_info (
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    updated_ms BIGINT NOT NULL,
                    renewal_json TEXT NOT NULL,
                    PRIMARY KEY (environment, bundle_id, original_transaction_id)
                )
                """,
            ]
        },
        LedgerMigration(version: 2, description: "server notifications (replay protection)") { _ in
            [
                """
                CREATE TABLE receiptkit_notifications (
                    notification_uuid TEXT PRIMARY KEY,
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    notification_type TEXT NOT NULL,
                    subtype TEXT,
                    signed_ms BIGINT NOT NULL,
                    received_ms BIGINT NOT NULL,
                    payload_json TEXT NOT NULL
                )
                """,
                """
                CREATE INDEX receiptkit_notifications_by_app
                    ON receiptkit_notifications (environment, bundle_id, signed_ms)
                """,
            ]
        },
    ]

    /// The newest version this build knows.
    static var latestVersion: Int { Self.all.last?.version ?? 0 }

    static func createVersionTable(_ dialect: SQLDialect) -> String {
        """
        CREATE TABLE IF NOT EXISTS receiptkit_schema (
            version INTEGER PRIMARY KEY,
            description TEXT NOT NULL,
            applied_at TEXT NOT NULL DEFAULT \(dialect.currentTimestamp)
        )
        """
    }

    static let selectVersion = "SELECT COALESCE(MAX(version), 0) AS version FROM receiptkit_schema"

    func recordStatement(_ dialect: SQLDialect) -> SQLStatement {
        SQLStatement(
            sql: "INSERT INTO receiptkit_schema (version, description) VALUES (\(dialect.placeholder(1)), \(dialect.placeholder(2)))",
            binds: [.integer(Int64(self.version)), .text(self.description)]
        )
    }
}
