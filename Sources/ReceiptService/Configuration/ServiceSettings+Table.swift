import AppStoreServerAPI
import ReceiptKit

extension ServiceSettings {
    /// Every setting of the service, one row each, grouped by concern: its name, rule and place. A new setting is a
    /// property where it belongs (``VerifyReceiptConfiguration`` and the types it holds) and a row here; the file,
    /// the environment, `--set`, the check and `--list-settings` all read this table.
    static let table: [ServiceSetting] = [
        // Where it listens and what it remembers.
        .string("host", \.host, rule: "a host name or address", "The address to bind.") { host in
            host.isEmpty ? SettingProblem("must not be empty") : nil
        },
        .integer("port", \.port, in: 0...65_535, "The port to bind (0 picks a free one)."),
        .string(
            "metrics_listen", \.metricsListen, rule: "empty, or host:port",
            "A listener of their own for /health and /metrics (then 404 on the main one); empty: the main one."
        ) { value in
            value.isEmpty || ProbeListener(value) != nil ? nil : SettingProblem("must be empty or host:port, as 127.0.0.1:9090")
        },
        .ledgerLocation(
            "database", \.database, rule: "sqlite:PATH, sqlite::memory: or postgres://…",
            "The ledger; checked when it is opened. A relative SQLite path in a settings file is the file's neighbour."),
        .integer(
            "ledger_snapshot_cache_bytes", \.ledgerSnapshotCacheBytes, in: 0...1_099_511_627_776,
            "Memory for snapshots the ledger read before (0: every request reads the database)."),
        .integer(
            "database_max_connections", \.databaseMaximumConnections, in: 1...10_000,
            "PostgreSQL connections this instance opens and keeps (all instances' sum under the server's max_connections)."),
        .flag(
            "migrate_on_start", \.migratesOnStart,
            "Migrate the ledger's schema at start; false: start only on this build's schema (serve --migrate first)."),

        // What it accepts.
        .paths("anchors", \.anchorFiles, "Anchor certificate files (DER or PEM) trusted besides Apple's root."),
        .stringSet("allowed_bundle_ids", \.verifyReceipt.allowedBundleIdentifiers, "The apps answered for (21010 for others)."),
        .secrets("shared_secrets", \.verifyReceipt.sharedSecrets, "Shared secrets by bundle id (21004 when the password differs)."),
        .flag(
            "allow_xcode_receipts", \.verifyReceipt.allowsXcodeReceipts,
            "Accept Xcode StoreKit-testing receipts (sandbox endpoint) and locally signed JWS. Never in production."),
        .flag(
            "jws_verify_endpoint", \.verifyReceipt.servesJWSVerify,
            "Serve POST /jws/verify, an operator's tool verifying any app's JWS (off: 404); your network only."),
        .optionalFlag(
            "check_revocation", \.checksRevocation,
            "Check App Store JWS certificates online (OCSP); an unreachable responder answers a notification 503."),

        // The operator's endpoints.
        .tokens(
            "admin_tokens", \.verifyReceipt.adminTokens,
            "Tokens of GET /v1/entitlements and POST /v1/sign/… (Bearer) and the timeline page /ui/subscriptions (Basic password); none: none is served."),
        .entitlementNames(
            "entitlements", \.verifyReceipt.entitlements,
            "Entitlement names by bundle id and product id (a product without names grants its product id)."),

        // How much work it takes on, and how long it waits.
        .integer("max_body_bytes", \.verifyReceipt.maximumBodySize, in: 1024...67_108_864, "Request bodies above this get HTTP 413."),
        .seconds(
            "request_timeout_seconds", \.verifyReceipt.requestTimeout, in: 0.001...3600,
            "The longest a request may take (then 21009, retryable; a body not in by then, HTTP 408)."),
        .seconds(
            "health_timeout_seconds", \.verifyReceipt.healthTimeout, in: 0.001...3600,
            "How long GET /health waits for the database before it answers 503."),
        .seconds(
            "header_read_timeout_seconds", \.verifyReceipt.headerReadTimeout, in: 0.001...3600,
            "How long a request's line and headers may take to arrive."),
        .integer("max_connections", \.verifyReceipt.maximumConnections, in: 1...1_048_576, "Connections open at once."),
        .integer(
            "max_connections_per_address", \.verifyReceipt.maximumConnectionsPerAddress, in: 1...1_048_576,
            "Connections open at once from one peer address (behind a proxy: set it to max_connections)."),
        .seconds(
            "idle_timeout_seconds", \.verifyReceipt.idleTimeout, in: 0.001...3600,
            "How long a keep-alive connection may idle between requests; at the cap the longest idle one is closed."),
        .integer(
            "max_in_flight_body_bytes", \.verifyReceipt.maximumInFlightBodyBytes, in: 1024...1_099_511_627_776,
            "Bytes of request bodies held at once, across connections, counted as they arrive (past it, HTTP 503)."),
        .integer(
            "max_in_flight_body_bytes_per_address", \.verifyReceipt.maximumInFlightBodyBytesPerAddress,
            in: 1024...1_099_511_627_776,
            "Of those, what one peer address's bodies may hold (at least max_body_bytes; behind a proxy: the total)."),
        .integer(
            "body_reserve_percent", \.verifyReceipt.bodyReservePercent, in: 0...90,
            "Of max_in_flight_body_bytes, the share bodies still arriving may not take: kept for bodies that arrive whole."),
        .seconds(
            "body_stall_timeout_seconds", \.verifyReceipt.bodyStallTimeout, in: 0.001...3600,
            "The longest a body may pause between chunks (then HTTP 408, the connection closed)."),
        .seconds(
            "response_write_timeout_seconds", \.verifyReceipt.responseWriteTimeout, in: 0.001...3600,
            "How long a response may wait for a client that does not read it; then the connection is closed."),
        .integer(
            "max_concurrent_validations", \.verifyReceipt.maximumConcurrentValidations, in: 1...4096,
            "Validations run at once; more requests wait their turn."),
        .integer(
            "max_receipt_bytes", \.verifyReceipt.decodingConfiguration.maximumInputSize, in: 1024...1_073_741_824,
            "The largest receipt decoded, after base64."),
        .integer(
            "max_receipt_purchases", \.verifyReceipt.decodingConfiguration.maximumPurchaseCount, in: 1...10_000_000,
            "The most in-app purchase records a receipt may hold."),
        .integer(
            "max_receipt_attributes", \.verifyReceipt.decodingConfiguration.maximumAttributeCount,
            in: 1...100_000_000, "The most attributes in a receipt's payload and in each purchase."),
        .integer(
            "max_receipt_certificates", \.verifyReceipt.decodingConfiguration.maximumCertificateCount, in: 1...64,
            "The most certificates a receipt's container may embed."),

        // Server notifications.
        .seconds(
            "notification_max_age_seconds", \.verifyReceipt.notifications.maximumAge, in: 60...31_536_000,
            "Notifications signed longer ago are refused (Apple retries for about 157 hours)."),
        .seconds(
            "notification_max_clock_skew_seconds", \.verifyReceipt.notifications.maximumClockSkew, in: 0...3600,
            "How far in the future a notification's signedDate may lie."),
        NotificationBackfillSetting.setting(
            "notification_backfill", \.verifyReceipt.notifications.backfill,
            "Recover notifications that never arrived from Get Notification History (apps with private_key_file), at start and on a schedule."),
        NotificationTargetSetting.setting(
            "notification_targets", \.verifyReceipt.notifications.forwarding.targets,
            "Backends each verified notification of an app is sent on to (at least once, in order per original transaction)."),
        NotificationForwardingSetting.setting(
            "notification_forwarding", \.verifyReceipt.notifications.forwarding,
            "How long forwarding retries an entry before parking it, how long an attempt may take, how many run at once."),

        // The App Store Server API refresh of /verifyReceipt.
        AppStoreServerAPISetting.setting(
            "app_store_server_api", \.apps,
            "The apps of the App Store Server API: refreshed and mirrored (private_key_file), or mirrored only (public_key_file)."),
        .seconds(
            "api_refresh_interval_seconds", \.verifyReceipt.appStoreServerAPI.refreshInterval, in: 60...2_592_000,
            "How old the ledger's API data may be before a request refreshes it."),
        .seconds(
            "api_refresh_wait_seconds", \.verifyReceipt.appStoreServerAPI.refreshWait, in: 0.001...3600,
            "How long a request waits for a refresh (at most half the request timeout) before it answers from the ledger."),
        .seconds(
            "api_failure_backoff_seconds", \.verifyReceipt.appStoreServerAPI.failureBackoff, in: 0...86_400,
            "After a failed refresh, how long its ids are answered from the ledger without asking Apple."),
        .seconds(
            "api_refused_key_pause_seconds", \.verifyReceipt.appStoreServerAPI.refusedKeyPause, in: 0...86_400,
            "After Apple refuses an app's key (401, 403), how long the app asks Apple nothing."),
        .integer(
            "api_max_refreshes", \.verifyReceipt.appStoreServerAPI.maximumRefreshes, in: 1...1_000_000,
            "Refreshes running at once per environment (a receipt's counted once; each app an equal share); past it, the ledger answers."),
        .seconds(
            "api_request_timeout_seconds", \.verifyReceipt.appStoreServerAPI.requestTimeout, in: 0.001...3600,
            "How long one API request may take."),
        .integer(
            "api_retry_max_attempts", \.verifyReceipt.appStoreServerAPI.retryPolicy.maximumAttempts, in: 1...10,
            "Attempts of one API request in all (429, 5xx and failed connections are retried)."),
        .seconds(
            "api_retry_max_total_delay_seconds", \.verifyReceipt.appStoreServerAPI.retryPolicy.maximumTotalDelay,
            in: 0...3600, "The most time one API request spends waiting between attempts."),
        .seconds(
            "api_retry_base_delay_seconds", \.verifyReceipt.appStoreServerAPI.retryPolicy.baseDelay, in: 0...3600,
            "The retry backoff's first step (full jitter, doubling)."),
        .seconds(
            "api_retry_max_delay_seconds", \.verifyReceipt.appStoreServerAPI.retryPolicy.maximumDelay, in: 0...3600,
            "The retry backoff's longest step."),
        .seconds(
            "api_retry_max_total_time_seconds", \.verifyReceipt.appStoreServerAPI.retryPolicy.maximumTotalTime,
            in: 0.001...3600, "The most time one API request may take, attempts and waits together."),
    ]
}
