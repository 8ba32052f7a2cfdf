import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptKit
import ReceiptLedger
import ReceiptService
import LedgerTestSupport
import Testing

/// Two service instances on different loopback ports sharing one PostgreSQL database.
@Suite("Two instances, one PostgreSQL", .enabled(if: LedgerBackend.postgresURL != nil, Comment(rawValue: LedgerBackend.postgresSkipMessage)))
struct TwoInstanceTests {
    typealias H = ServiceHarness

    @Test("instances migrate together, and a receipt posted to one shows in the other's latest_receipt_info")
    func sharedLedger() async throws {
        let first = try ServiceTestPKI.mint(ServiceTestPKI.receipt(createdDay: 40, purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
        ]))
        let renewed = try ServiceTestPKI.mint(ServiceTestPKI.receipt(createdDay: 70, purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
            ServiceTestPKI.purchase("1001", original: "1000", day: 31),
        ]))
        let configuration = try H.configuration()
        try await LedgerBackend.withPostgresSchema { postgres in
            let a = PostgresLedger(configuration: postgres, logger: LedgerBackend.quiet)
            let b = PostgresLedger(configuration: postgres, logger: LedgerBackend.quiet)
            try await LedgerBackend.running(a) {
                try await LedgerBackend.running(b) {
                    // Both start at once: the advisory lock serialises their migrations.
                    async let migrateA: Void = a.migrate()
                    async let migrateB: Void = b.migrate()
                    _ = try await (migrateA, migrateB)
                    #expect(try await a.schemaVersion() == LedgerSchemaVersion.latest)

                    try await H.withLiveService(configuration, ledger: a) { clientA, _ in
                        try await H.withLiveService(configuration, ledger: b) { clientB, _ in
                            #expect(clientA.port != clientB.port)
                            _ = try await H.post(clientA, body: H.body(renewed))
                            let object = try await H.post(clientB, body: H.body(first))
                            #expect(object["status"] as? Int == 0)
                            let ids = (object["latest_receipt_info"] as? [[String: Any]])?
                                .compactMap { $0["transaction_id"] as? String }
                            #expect(ids == ["1001", "1000"])
                            #expect(object["latest_receipt"] as? String == Data(renewed).base64EncodedString())
                        }
                    }
                }
            }
        }
    }
}
