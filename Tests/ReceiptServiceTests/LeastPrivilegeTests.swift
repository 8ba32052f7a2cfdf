import AppStorePKI
import Foundation
import Hummingbird
import HummingbirdTesting
import LedgerTestSupport
import Logging
import PostgresNIO
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService
import Testing

/// The deployment guide's least-privilege split, on a real PostgreSQL: an owner role migrates the ledger
/// (`serve --migrate`), and the service runs as a role that may only read and write rows (`migrate_on_start` false)
/// — refused, with the way out, until the schema is this build's; then serving receipts and notifications.
@Suite("PostgreSQL: the service's role needs no right to change the schema", .serialized)
struct LeastPrivilegeTests {
    /// The test server's URL with another role (trust authentication: the password is not checked there).
    static func url(role: String, applicationName: String? = nil) throws -> String {
        guard let base = LedgerBackend.postgresURL, var components = URLComponents(string: base) else {
            throw PostgresUnavailable()
        }
        components.user = role
        components.password = "unused"
        if let applicationName {
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "application_name", value: applicationName)]
        }
        guard let url = components.string else { throw PostgresUnavailable() }
        return url
    }

    static func configuration(
        role: String, applicationName: String? = nil, settings: [String: String] = [:]
    ) throws -> ServiceConfiguration {
        var configuration = ServiceConfiguration(logger: LedgerBackend.quiet)
        configuration.database = try Self.url(role: role, applicationName: applicationName)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        // A few connections each: many tests share the test server.
        configuration.commandLineSettings = ["database_max_connections": "3"].merging(settings) { $1 }
        configuration.verifyReceipt.anchors = AppStoreTrustAnchors([try ServiceTestPKI.ca.root.certificate])
        configuration.now = { ServiceTestPKI.now }
        // A CI run (2026-12-02, two loaded cores) failed the start with "no connection within 3.0 seconds".
        configuration.databaseLeaseLimit = LedgerBackend.testLeaseLimit
        return configuration
    }

    @Test("an owner migrates; a row-only role then serves with migrate_on_start false, and is refused before")
    func ownerMigratesServiceServes() async throws {
        try #require(LedgerBackend.postgresURL != nil || !LedgerBackend.postgresRequired, "PostgreSQL is required here")
        guard let adminURL = LedgerBackend.postgresURL else {
            print(LedgerBackend.postgresSkipMessage)
            return
        }
        let suffix = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        let (owner, service) = ("rk_owner_\(suffix)", "rk_service_\(suffix)")
        let admin = PostgresLedger(
            configuration: try PostgresLedger.configuration(url: adminURL), answeringLeaseLimit: LedgerBackend.testLeaseLimit,
            logger: LedgerBackend.quiet)
        try await LedgerBackend.running(admin) {
            func sql(_ text: String) async throws { try await admin.client.query(PostgresQuery(unsafeSQL: text)) }
            // As the deployment guide says: the owner's schema, the service's role with its search_path there.
            try await sql("CREATE ROLE \(owner) LOGIN")
            try await sql("CREATE ROLE \(service) LOGIN")
            try await sql("CREATE SCHEMA \(owner) AUTHORIZATION \(owner)")
            try await sql("GRANT USAGE ON SCHEMA \(owner) TO \(service)")
            try await sql("ALTER ROLE \(service) SET search_path = \(owner)")
            try await sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
            do {
                try await Self.exercise(owner: owner, service: service, sql: sql) { name in
                    var count = 0
                    let rows = try await admin.client.query(
                        "SELECT count(*)::int8 FROM pg_stat_activity WHERE application_name = \(name)", logger: LedgerBackend.quiet)
                    for try await value in rows.decode(Int64.self) { count = Int(value) }
                    return count
                }
            } catch {
                try? await Self.dropRoles(owner: owner, service: service, sql: sql)
                throw error
            }
            try await Self.dropRoles(owner: owner, service: service, sql: sql)
        }
    }

    static func dropRoles(owner: String, service: String, sql: (String) async throws -> Void) async throws {
        try await sql("DROP SCHEMA \(owner) CASCADE")
        try await sql("DROP OWNED BY \(service)")
        try await sql("DROP ROLE \(service)")
        try await sql("DROP ROLE \(owner)")
    }

    static func exercise(
        owner: String, service: String, sql: (String) async throws -> Void,
        connections: @escaping @Sendable (String) async throws -> Int
    ) async throws {
        let rowsOnly = ["migrate_on_start": "false"]
        // Before any migration: refused with the schema found and the way out.
        let early = try Self.configuration(role: service, settings: rowsOnly)
        let refusal = await #expect(throws: ServiceStartupError.self) {
            // As serve runs it: the start fails before anything listens (a test client would wait for a port).
            try await buildApplication(configuration: early).runService()
        }
        #expect(refusal?.code == .schemaNotCurrent)
        #expect(refusal?.reason.contains("schema version 0, this build's is \(LedgerSchemaVersion.latest)") == true, "\(refusal?.reason ?? "")")
        #expect(refusal?.reason.contains("receiptkit serve --migrate") == true)
        // --check-config says the same before serving: not servable.
        let earlyCheck = try await early.check()
        #expect(earlyCheck.schemaVersion == 0)
        #expect(!earlyCheck.isServable)
        // The service's role cannot migrate it itself: it may not create anything.
        let selfMigrating = try Self.configuration(role: service)
        let denied = await #expect(throws: ServiceStartupError.self) { _ = try await selfMigrating.migrateLedger() }
        #expect(denied?.code == .databaseUnavailable)
        #expect(denied?.reason.contains("permission denied") == true, "\(denied?.reason ?? "")")

        // The owner migrates; the service's role is granted rows only.
        let migrated = try await Self.configuration(role: owner).migrateLedger()
        #expect(migrated.from == 0)
        #expect(migrated.to == LedgerSchemaVersion.latest)
        let again = try await Self.configuration(role: owner).migrateLedger()
        #expect(again.from == LedgerSchemaVersion.latest && again.to == LedgerSchemaVersion.latest)
        try await sql("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(owner) TO \(service)")
        try await sql("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA \(owner) TO \(service)")

        // --check-config as the service's role: servable.
        let check = try await Self.configuration(role: service, settings: rowsOnly).check()
        #expect(check.isServable)
        #expect(check.schemaVersion == LedgerSchemaVersion.latest)

        // Serving as the service's role: a receipt recorded and answered, then answered from the ledger again; the
        // service holds database_max_connections connections (3 here), named by the URL's application_name.
        let receipt = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
        let name = "rk_lp_\(service.suffix(12))"
        let application = try await buildApplication(
            configuration: try Self.configuration(role: service, applicationName: name, settings: rowsOnly))
        try await application.test(.live) { client in
            for _ in 0..<2 {
                let answer = try await ServiceHarness.post(client, body: ServiceHarness.body(receipt))
                #expect(answer["status"] as? Int == 0)
                #expect((answer["latest_receipt_info"] as? [Any])?.count == 1)
            }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            var held = 0
            for _ in 0..<50 {
                held = try await connections(name)
                if held >= 3 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(held == 3)
        }
    }
}
