import Foundation
package import Logging
package import PostgresNIO
package import ReceiptLedger
import Testing

/// The ledgers the shared suite runs against: SQLite in memory and in a file always, PostgreSQL when
/// `RECEIPTKIT_TEST_POSTGRES_URL` names a server (`.ci/run` starts one; a user's clone skips it).
package enum LedgerBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// How long a test ledger's lease may wait for a connection while the server answers: hundreds of tests start
    /// at once on CI's two cores, and a CI run (2026-12-02) failed 44 PostgreSQL tests with "no connection within
    /// 3.0 seconds" while the server had connections to spare — their connections were slow to start, not refused.
    package static let testLeaseLimit: Duration = .seconds(20)

    case sqliteMemory = "sqlite-memory"
    case sqliteFile = "sqlite-file"
    case postgres

    package var testDescription: String { self.rawValue }

    package static let postgresURL = ProcessInfo.processInfo.environment["RECEIPTKIT_TEST_POSTGRES_URL"]
    package static let postgresRequired = ProcessInfo.processInfo.environment["RECEIPTKIT_REQUIRE_POSTGRES"] == "1"
    package static let postgresSkipMessage =
        "RECEIPTKIT_TEST_POSTGRES_URL is not set: the PostgreSQL ledger tests are skipped (.ci/run starts a server)"

    /// The backends available here.
    package static var available: [LedgerBackend] {
        Self.postgresURL == nil ? [.sqliteMemory, .sqliteFile] : Self.allCases
    }

    /// A fresh, migrated ledger of this kind for the duration of `body`: a new temporary file, or a new PostgreSQL
    /// schema (so tests never see each other's rows). `migrated: false` leaves it empty (migration tests).
    package func withLedger<T: Sendable>(
        migrated: Bool = true, _ body: @Sendable (any Ledger) async throws -> T
    ) async throws -> T {
        switch self {
        case .sqliteMemory:
            let ledger = try await SQLiteLedger(path: nil)
            defer { Task { await ledger.shutdown() } }
            if migrated { try await ledger.migrate() }
            return try await body(ledger)
        case .sqliteFile:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-ledger-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let ledger = try await SQLiteLedger(path: directory.appendingPathComponent("ledger.sqlite").path)
            // Shut down whatever happens: a ledger left open keeps its threads, its connections and the file's
            // owner lock.
            do {
                if migrated { try await ledger.migrate() }
                let result = try await body(ledger)
                await ledger.shutdown()
                return result
            } catch {
                await ledger.shutdown()
                throw error
            }
        case .postgres:
            return try await Self.withPostgresSchema { configuration in
                let ledger = PostgresLedger(
                    configuration: configuration, answeringLeaseLimit: Self.testLeaseLimit, logger: Self.quiet)
                return try await Self.running(ledger) {
                    if migrated { try await ledger.migrate() }
                    return try await body(ledger)
                }
            }
        }
    }

    /// Runs `body` with a client configuration whose `search_path` is a new schema, dropped afterwards.
    package static func withPostgresSchema<T: Sendable>(
        _ body: @Sendable (PostgresClient.Configuration) async throws -> T
    ) async throws -> T {
        guard let url = Self.postgresURL else { throw PostgresUnavailable() }
        let schema = "rk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var configuration = try PostgresLedger.configuration(url: url)
        // Hundreds of tests run at once on one server: the admin client needs one connection (and so no change
        // listener), a test's ledger a few — PostgresNIO's default of 20 each, kept for a minute when idle, reached
        // the test server's max_connections under CI's load, and leases then timed out.
        configuration.options.maximumConnections = 1
        let admin = PostgresLedger(configuration: configuration, answeringLeaseLimit: Self.testLeaseLimit, logger: Self.quiet)
        configuration.options.maximumConnections = Self.connectionsPerTestLedger
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        let scoped = configuration
        // A client's pool runs once: the admin client stays up for create, test and drop.
        return try await Self.running(admin) {
            try await admin.client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
            do {
                let result = try await body(scoped)
                try await admin.client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
                return result
            } catch {
                _ = try? await admin.client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
                throw error
            }
        }
    }

    /// Runs `body` with the URL of a new, empty PostgreSQL database on the test server, dropped afterwards (even
    /// while processes `body` started still hold connections to it): for tests of `receiptkit` processes, whose
    /// `--database` takes a URL and so no schema of their own.
    package static func withPostgresDatabase<T: Sendable>(_ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
        guard let url = Self.postgresURL, var parts = URLComponents(string: url) else { throw PostgresUnavailable() }
        let name = "rk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        parts.path = "/" + name
        guard let scoped = parts.string else { throw PostgresUnavailable() }
        var configuration = try PostgresLedger.configuration(url: url)
        configuration.options.maximumConnections = 1
        let admin = PostgresLedger(configuration: configuration, answeringLeaseLimit: Self.testLeaseLimit, logger: Self.quiet)
        return try await Self.running(admin) {
            try await admin.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            do {
                let result = try await body(scoped)
                try await admin.client.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"))
                return result
            } catch {
                _ = try? await admin.client.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"))
                throw error
            }
        }
    }

    /// The pool size of a test's PostgreSQL ledger (a test that needs more sets its own).
    package static let connectionsPerTestLedger = 6

    /// Runs `body` with two ledger handles — two instances — on one fresh PostgreSQL schema, migrated.
    package static func withTwoPostgresLedgers(
        _ body: @Sendable (PostgresLedger, PostgresLedger) async throws -> Void
    ) async throws {
        try await Self.withPostgresSchema { postgres in
            let a = PostgresLedger(configuration: postgres, answeringLeaseLimit: Self.testLeaseLimit, logger: Self.quiet)
            let b = PostgresLedger(configuration: postgres, answeringLeaseLimit: Self.testLeaseLimit, logger: Self.quiet)
            try await Self.running(a) {
                try await Self.running(b) {
                    try await a.migrate()
                    try await body(a, b)
                }
            }
        }
    }

    /// Errors only: a test's pool may be asked for a connection a moment before its `run()` task starts, which
    /// PostgresNIO notes with a warning and then serves.
    package static var quiet: Logger {
        var logger = Logger(label: "receiptkit.test.postgres")
        logger.logLevel = .error
        return logger
    }

    /// Runs a PostgreSQL ledger's pool while `body` runs.
    package static func running<T: Sendable>(_ ledger: PostgresLedger, _ body: @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await ledger.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}

package struct PostgresUnavailable: Error {
    package init() {}
}
