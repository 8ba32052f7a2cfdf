import Foundation
import LedgerTestSupport
import PostgresNIO
@testable import ReceiptLedger
import Testing

/// A serving ledger keeps its PostgreSQL connections open (`PostgresLedger.keepingConnectionsOpen(_:)`): PostgresNIO's
/// pool then schedules no idle-timeout or keep-alive timer when a connection goes back to it, timers that otherwise
/// pile up under load until their deadlines (issue 45: the service's memory grew with its request rate).
@Suite("PostgreSQL connections kept open")
struct PostgresKeptConnectionsTests {
    static let needsPostgres = ConditionTrait.enabled(
        if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage))

    /// The connections of this test's ledger the server has, counted by `application_name`, polled until `count` are
    /// there or `polls` tenths of a second have passed; and the server's TCP keep-alive idle time on one of them.
    static func observe(
        keepsOpen: Bool, count: Int, polls: Int
    ) async throws -> (connections: Int, keepAliveIdle: String) {
        let url = try #require(LedgerBackend.postgresURL)
        let name = "rk_kept_\(UUID().uuidString.prefix(8).lowercased())"
        var configuration = try PostgresLedger.configuration(url: url)
        configuration.options.maximumConnections = count
        if keepsOpen { configuration = PostgresLedger.keepingConnectionsOpen(configuration) }
        configuration.options.additionalStartupParameters.removeAll { $0.0 == "application_name" }
        configuration.options.additionalStartupParameters.append(("application_name", name))
        let ledger = PostgresLedger(configuration: configuration, snapshotCacheBytes: 0, logger: LedgerBackend.quiet)
        return try await LedgerBackend.running(ledger) {
            var connections = 0
            for _ in 0..<polls {
                let rows = try await ledger.client.query(
                    "SELECT count(*)::int8 FROM pg_stat_activity WHERE application_name = \(name)",
                    logger: LedgerBackend.quiet)
                for try await value in rows.decode(Int64.self) { connections = Int(value) }
                if connections >= count { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            var idle = ""
            for try await value in try await ledger.client.query("SHOW tcp_keepalives_idle", logger: LedgerBackend.quiet)
                .decode(String.self)
            {
                idle = value
            }
            return (connections, idle)
        }
    }

    @Test("kept open: every connection opened at once, no keep-alive query, the server's TCP keep-alive after 60 s idle",
          Self.needsPostgres)
    func keptOpen() async throws {
        let configuration = PostgresLedger.keepingConnectionsOpen(
            try PostgresLedger.configuration(url: try #require(LedgerBackend.postgresURL)))
        #expect(configuration.options.minimumConnections == configuration.options.maximumConnections)
        #expect(configuration.options.keepAliveBehavior == nil)
        let kept = try await Self.observe(keepsOpen: true, count: 5, polls: 100)
        #expect(kept.connections == 5)
        #expect(kept.keepAliveIdle == "60")
        // PostgresNIO's defaults, for contrast: connections opened on demand only (the listener's and the query's),
        // the OS's keep-alive.
        let pooled = try await Self.observe(keepsOpen: false, count: 5, polls: 10)
        #expect(pooled.connections < 5)
        #expect(pooled.keepAliveIdle != "60")
    }

    @Test("settings given in the configuration are not overridden")
    func givenSettingsWin() throws {
        var configuration = try PostgresLedger.configuration(url: "postgres://rk@127.0.0.1:5432/rk?sslmode=disable")
        configuration.options.additionalStartupParameters = [("tcp_keepalives_idle", "300")]
        let kept = PostgresLedger.keepingConnectionsOpen(configuration).options.additionalStartupParameters
        #expect(kept.filter { $0.0 == "tcp_keepalives_idle" }.map(\.1) == ["300"])
        #expect(kept.map(\.0).sorted() == ["tcp_keepalives_count", "tcp_keepalives_idle", "tcp_keepalives_interval"])
    }
}
