import Foundation
import LedgerTestSupport
@testable import ReceiptLedger
import Testing

/// When PostgreSQL gives no connection, the first call says why — the server's own words for a role or database
/// that does not exist, "connection refused" for a closed port — not only "no connection within 3 s": the pool keeps
/// its connection errors to its log, so the ledger opens one connection itself to find the cause, once per outage.
@Suite("PostgreSQL connection diagnosis")
struct PostgresDiagnosisTests {
    /// The URLs to try and what the first failing call must say. A closed port always; a wrong role and database
    /// when a server is configured.
    static var cases: [(url: String, expected: String)] {
        var cases = [("postgres://receiptkit@127.0.0.1:1/receiptkit?sslmode=disable", "connection refused (nothing listens at 127.0.0.1:1)")]
        if let url = LedgerBackend.postgresURL, let components = URLComponents(string: url), let host = components.host {
            let port = components.port ?? 5432
            let user = components.user ?? "postgres"
            cases.append((
                "postgres://nosuchrole@\(host):\(port)/receiptkit?sslmode=disable",
                #"role "nosuchrole" does not exist (SQLSTATE 28000)"#))
            cases.append((
                "postgres://\(user)@\(host):\(port)/nosuchdatabase?sslmode=disable",
                #"no such database: database "nosuchdatabase" does not exist (SQLSTATE 3D000)"#))
        }
        return cases
    }

    @Test("a closed port, an unknown role, an unknown database: named in the first error", .timeLimit(.minutes(1)))
    func causes() async throws {
        for (url, expected) in Self.cases {
            let ledger = try PostgresLedger(url: url, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(ledger) {
                let first = await #expect(throws: LedgerError.self) { try await ledger.migrate() }
                #expect(first?.code == .unavailable)
                #expect(first?.reason.hasPrefix("PostgreSQL: no connection within 3.0 seconds: ") == true, "\(first?.reason ?? "")")
                #expect(first?.reason.contains(expected) == true, "\(first?.reason ?? "")")
                // Later calls in the same outage fail fast, without a diagnosis each.
                let next = await #expect(throws: LedgerError.self) { try await ledger.ping() }
                #expect(next?.reason == "PostgreSQL: no connection within 0.5 seconds (server unreachable)")
            }
        }
    }
}
