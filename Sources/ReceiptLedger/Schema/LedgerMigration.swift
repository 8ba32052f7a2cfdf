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
        LedgerMigration(
            version: 3, description: "row sources; newest receipt and API refresh per original transaction"
        ) { _ in
            [
                "ALTER TABLE receiptkit_transactions ADD COLUMN source TEXT NOT NULL DEFAULT 'receipt'",
                // Rows learnt from notifications were marked by their `jws:` hash until now.
                "UPDATE receiptkit_transactions SET source = 'notification' WHERE receipt_hash LIKE 'jws:%'",
                "ALTER TABLE receiptkit_renewal_info ADD COLUMN source TEXT NOT NULL DEFAULT 'notification'",
                """
                CREATE TABLE receiptkit_original_transactions (
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    latest_receipt_hash TEXT,
                    latest_receipt_created_ms BIGINT,
                    api_refreshed_ms BIGINT,
                    PRIMARY KEY (environment, bundle_id, original_transaction_id)
                )
                """,
                // The newest receipt per original transaction id, from the rows receipts still hold (a row a
                // notification replaced no longer says which receipt carried it: such a subscription answers with
                // the posted receipt until a receipt carrying it is recorded again).
                """
                INSERT INTO receiptkit_original_transactions
                    (environment, bundle_id, original_transaction_id, latest_receipt_hash, latest_receipt_created_ms)
                SELECT DISTINCT t.environment, t.bundle_id, t.original_transaction_id, t.receipt_hash, t.receipt_created_ms
                FROM receiptkit_transactions t
                WHERE t.source = 'receipt' AND NOT EXISTS (
                    SELECT 1 FROM receiptkit_transactions n
                    WHERE n.environment = t.environment AND n.bundle_id = t.bundle_id
                        AND n.original_transaction_id = t.original_transaction_id AND n.source = 'receipt'
                        AND (n.receipt_created_ms, n.receipt_hash) > (t.receipt_created_ms, t.receipt_hash)
                )
                """,
            ]
        },
        LedgerMigration(
            version: 4, description: "PostgreSQL: change notifications for other instances' snapshot caches"
        ) { dialect in
            guard dialect == .postgres else { return [] }  // one process owns a SQLite file: it sees every write
            // Every change to a row a snapshot reads names its original transaction id on the channel, at commit
            // (ids longer than 256 characters, which no Apple id is, say `*`: forget everything).
            let tables = ["receiptkit_transactions", "receiptkit_renewal_info", "receiptkit_original_transactions"]
            return [
                """
                CREATE FUNCTION receiptkit_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    id TEXT;
                BEGIN
                    IF TG_OP = 'TRUNCATE' THEN
                        PERFORM pg_notify('\(LedgerMigration.changeChannel)', '*');
                        RETURN NULL;
                    END IF;
                    IF TG_OP <> 'INSERT' THEN
                        id := OLD.original_transaction_id;
                        PERFORM pg_notify('\(LedgerMigration.changeChannel)', CASE WHEN length(id) <= 256 THEN id ELSE '*' END);
                    END IF;
                    IF TG_OP <> 'DELETE' THEN
                        id := NEW.original_transaction_id;
                        PERFORM pg_notify('\(LedgerMigration.changeChannel)', CASE WHEN length(id) <= 256 THEN id ELSE '*' END);
                    END IF;
                    RETURN NULL;
                END
                $$
                """
            ] + tables.flatMap { table in
                [
                    """
                    CREATE TRIGGER \(table)_changed AFTER INSERT OR UPDATE OR DELETE ON \(table)
                        FOR EACH ROW EXECUTE FUNCTION receiptkit_notify_change()
                    """,
                    """
                    CREATE TRIGGER \(table)_truncated AFTER TRUNCATE ON \(table)
                        FOR EACH STATEMENT EXECUTE FUNCTION receiptkit_notify_change()
                    """,
                ]
            }
        },
        LedgerMigration(
            version: 5, description: "PostgreSQL: App Store Server API claims, backoffs and pauses shared by instances"
        ) { dialect in
            guard dialect == .postgres else { return [] }  // one process owns a SQLite file: it keeps them in memory
            // One row per customer (`scope`: the original transaction id the refresh leads with) or per app (scope
            // ''): who refreshes it and until when, or until when it backs off or is paused.
            return [
                """
                CREATE TABLE receiptkit_api_claims (
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    holder TEXT NOT NULL,
                    until_ms BIGINT NOT NULL,
                    PRIMARY KEY (environment, bundle_id, scope)
                )
                """,
                "CREATE INDEX receiptkit_api_claims_by_end ON receiptkit_api_claims (until_ms)",
            ]
        },
        LedgerMigration(
            version: 6, description: "PostgreSQL: one change notification per statement, not per row"
        ) { dialect in
            guard dialect == .postgres else { return [] }
            // A row trigger ran a function and queued a notification per row written (a group commit's batch writes
            // hundreds); a statement trigger reads the rows the statement changed (its transition tables) and names
            // their original transaction ids in one payload, separated by commas: `*` when one is longer than 256
            // characters or holds a comma (no Apple id does), or when the list would not fit a notification.
            let tables = ["receiptkit_transactions", "receiptkit_renewal_info", "receiptkit_original_transactions"]
            let channel = LedgerMigration.changeChannel
            // The row triggers go; version 4's function stays for the TRUNCATE triggers (`*`).
            return tables.map { "DROP TRIGGER \($0)_changed ON \($0)" } + [
                """
                CREATE FUNCTION receiptkit_notify_changes() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    ids TEXT[];
                    payload TEXT;
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        SELECT array_agg(DISTINCT original_transaction_id) INTO ids FROM receiptkit_new;
                    ELSIF TG_OP = 'UPDATE' THEN
                        SELECT array_agg(DISTINCT id) INTO ids FROM (
                            SELECT original_transaction_id AS id FROM receiptkit_new
                            UNION SELECT original_transaction_id FROM receiptkit_old) AS changed;
                    ELSE
                        SELECT array_agg(DISTINCT original_transaction_id) INTO ids FROM receiptkit_old;
                    END IF;
                    IF ids IS NULL THEN
                        RETURN NULL;
                    END IF;
                    payload := array_to_string(ids, ',');
                    IF octet_length(payload) > 7000
                        OR EXISTS (SELECT 1 FROM unnest(ids) AS id WHERE length(id) > 256 OR position(',' IN id) > 0)
                    THEN
                        payload := '*';
                    END IF;
                    PERFORM pg_notify('\(channel)', payload);
                    RETURN NULL;
                END
                $$
                """,
            ] + tables.flatMap { table in
                [
                    """
                    CREATE TRIGGER \(table)_inserted AFTER INSERT ON \(table) REFERENCING NEW TABLE AS receiptkit_new
                        FOR EACH STATEMENT EXECUTE FUNCTION receiptkit_notify_changes()
                    """,
                    """
                    CREATE TRIGGER \(table)_updated AFTER UPDATE ON \(table)
                        REFERENCING OLD TABLE AS receiptkit_old NEW TABLE AS receiptkit_new
                        FOR EACH STATEMENT EXECUTE FUNCTION receiptkit_notify_changes()
                    """,
                    """
                    CREATE TRIGGER \(table)_deleted AFTER DELETE ON \(table) REFERENCING OLD TABLE AS receiptkit_old
                        FOR EACH STATEMENT EXECUTE FUNCTION receiptkit_notify_changes()
                    """,
                ]
            }
        },
        LedgerMigration(version: 7, description: "signed values kept as Apple signed them") { _ in
            // Rows learnt before keep working without: they simply have no JWS to serve.
            [
                "ALTER TABLE receiptkit_transactions ADD COLUMN signed_jws TEXT",
                "ALTER TABLE receiptkit_renewal_info ADD COLUMN signed_jws TEXT",
                "ALTER TABLE receiptkit_notifications ADD COLUMN signed_payload TEXT",
            ]
        },
        // Keyed by the hash first (a SHA-256: as selective as a key), then the app: an index that began with the
        // primary key's environment and bundle id would be as good a match for the snapshot read's first two columns
        // to a planner looking at empty tables, and PostgreSQL's kept plan then filtered the original transaction ids
        // over it; with the app after the hash, a customer's lookup matches the whole index.
        // The app account tokens signed transactions carry, by customer: a table of their own, which receipts (they
        // carry none) never clear; filled from the transactions stored before (read from their JSON as the ledger
        // writes it, so that a row whose JSON is not an object cannot fail the migration). Change numbers: the order
        // in which the ledger learnt of each transaction's content, for the mirror's history pages; rows stored
        // before are numbered by version date.
        LedgerMigration(
            version: 8,
            description: "customers: original transactions by their newest receipt and by app account token; change numbers"
        ) { dialect in
            let token =
                dialect == .postgres
                ? "lower(substring(purchase_json FROM '\"app_account_token\":\"([^\"]*)\"'))"
                : "lower(CASE WHEN json_valid(purchase_json) THEN json_extract(purchase_json, '$.app_account_token') END)"
            let counter =
                dialect == .postgres
                ? [
                    "CREATE SEQUENCE receiptkit_change_seq",
                    "SELECT setval('receiptkit_change_seq', (SELECT COALESCE(MAX(change_seq), 0) + 1 FROM receiptkit_transactions), false)",
                ]
                : ["CREATE INDEX receiptkit_transactions_by_change ON receiptkit_transactions (change_seq)"]
            return [
                """
                CREATE INDEX receiptkit_original_transactions_by_receipt
                    ON receiptkit_original_transactions (latest_receipt_hash, environment, bundle_id)
                """,
                """
                CREATE TABLE receiptkit_app_account_tokens (
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    app_account_token TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    PRIMARY KEY (environment, bundle_id, app_account_token, original_transaction_id)
                )
                """,
                """
                INSERT INTO receiptkit_app_account_tokens (environment, bundle_id, app_account_token, original_transaction_id)
                SELECT DISTINCT environment, bundle_id, \(token), original_transaction_id FROM receiptkit_transactions
                WHERE purchase_json LIKE '%"app_account_token"%' AND \(token) IS NOT NULL
                """,
                "ALTER TABLE receiptkit_transactions ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0",
                """
                UPDATE receiptkit_transactions SET change_seq = numbered.n
                FROM (SELECT environment, bundle_id, transaction_id,
                        row_number() OVER (ORDER BY receipt_created_ms, transaction_id) AS n
                      FROM receiptkit_transactions) AS numbered
                WHERE numbered.environment = receiptkit_transactions.environment
                    AND numbered.bundle_id = receiptkit_transactions.bundle_id
                    AND numbered.transaction_id = receiptkit_transactions.transaction_id
                """,
            ] + counter
        },
        // The original transaction each notification is about, for a customer's timeline; notifications recorded
        // before keep none (their id is inside the JWS of their payload, which SQL cannot read): they are not on it.
        LedgerMigration(version: 9, description: "notifications by original transaction") { _ in
            [
                "ALTER TABLE receiptkit_notifications ADD COLUMN original_transaction_id TEXT",
                """
                CREATE INDEX receiptkit_notifications_by_original
                    ON receiptkit_notifications (original_transaction_id, environment, bundle_id, signed_ms)
                """,
            ]
        },
        // How far each app's notification backfill from Get Notification History has covered (its lease, on a shared
        // ledger, is a row of `receiptkit_api_claims`).
        LedgerMigration(version: 10, description: "notification backfill cursors") { _ in
            [
                """
                CREATE TABLE receiptkit_notification_backfill (
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    covered_until_ms BIGINT NOT NULL,
                    windows BIGINT NOT NULL,
                    updated_ms BIGINT NOT NULL,
                    PRIMARY KEY (environment, bundle_id)
                )
                """
            ]
        },
        // Notifications to send on to the app's own backends, one entry per target, written with the notification.
        // `order_key` is the original transaction id, or the UUID for a notification about none; delivered entries
        // are deleted. The first index finds an entry's predecessors in its order, the second a target's due entries
        // in the order a claim takes them (so that a claim reads what it takes, not the whole backlog).
        LedgerMigration(version: 11, description: "notification outbox") { dialect in
            [
                """
                CREATE TABLE receiptkit_notification_outbox (
                    target TEXT NOT NULL,
                    notification_uuid TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    order_key TEXT NOT NULL,
                    original_transaction_id TEXT,
                    notification_type TEXT NOT NULL,
                    subtype TEXT,
                    signed_ms BIGINT NOT NULL,
                    created_ms BIGINT NOT NULL,
                    body \(dialect.blobType) NOT NULL,
                    state TEXT NOT NULL,
                    attempts BIGINT NOT NULL,
                    next_attempt_ms BIGINT NOT NULL,
                    deadline_ms BIGINT NOT NULL,
                    holder TEXT,
                    lease_until_ms BIGINT NOT NULL,
                    last_error TEXT,
                    PRIMARY KEY (target, notification_uuid)
                )
                """,
                """
                CREATE INDEX receiptkit_notification_outbox_by_order
                    ON receiptkit_notification_outbox (target, environment, bundle_id, order_key, signed_ms, notification_uuid)
                """,
                """
                CREATE INDEX receiptkit_notification_outbox_due
                    ON receiptkit_notification_outbox (target, state, next_attempt_ms)
                """,
            ]
        },
    ]

    /// The version from which PostgreSQL announces changes on ``changeChannel`` as ``PostgresChangeListener`` reads
    /// them (version 4 announced one id per notification, which could hold a comma).
    static let changeNotificationsVersion = 6

    /// The PostgreSQL channel on which changes are announced: original transaction ids separated by commas (one
    /// id per notification before version 6), or `*` for all.
    static let changeChannel = "receiptkit_ledger_changes"

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
