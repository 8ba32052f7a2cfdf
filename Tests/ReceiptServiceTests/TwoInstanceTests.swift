import Foundation
import Hummingbird
import HummingbirdTesting
import AppStoreJWS
import ReceiptKitTesting
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
            let a = PostgresLedger(configuration: postgres, answeringLeaseLimit: LedgerBackend.testLeaseLimit, logger: LedgerBackend.quiet)
            let b = PostgresLedger(configuration: postgres, answeringLeaseLimit: LedgerBackend.testLeaseLimit, logger: LedgerBackend.quiet)
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

    @Test("the mirror and the entitlements answer alike from either instance: a customer learnt through one, a refund through the other")
    func mirrorAndEntitlementsAlike() async throws {
        typealias C = AppStoreMirrorCustomerTests
        typealias E = EntitlementsTests
        try await LedgerBackend.withTwoPostgresLedgers { a, b in
            _ = try await C.learnCustomer(into: a)
            let configuration = try E.configuration()
            try await H.withLiveService(configuration, ledger: a) { clientA, _ in
                try await H.withLiveService(configuration, ledger: b) { clientB, _ in
                    func answers(_ client: any TestClientProtocol) async throws -> [String] {
                        var bodies: [String] = []
                        for path in [
                            "/inApps/v1/subscriptions/\(C.monthly)", "/inApps/v2/history/\(C.monthly)",
                            "/inApps/v2/refund/lookup/\(C.monthly)", "/inApps/v1/transactions/\(C.yearly)",
                        ] {
                            let answer = try await AppStoreMirrorTests.get(client, path, authorization: try AppStoreMirrorTests.token())
                            #expect(answer.status == 200, "\(path)")
                            bodies.append(String(decoding: answer.body, as: UTF8.self))
                        }
                        let entitlements = try await client.execute(
                            uri: "/v1/entitlements?\(E.app)&transaction_id=\(C.monthly)", method: .get,
                            headers: [.authorization: "Bearer " + E.tokens[0]]) { String(buffer: $0.body) }
                        bodies.append(entitlements)
                        return bodies
                    }
                    let fromA = try await answers(clientA)
                    #expect(try await answers(clientB) == fromA)
                    // The yearly subscription refunded, learnt through the second instance.
                    var refunded = C.transactions()[22]
                    refunded["revocationDate"] = JWSSamplePayload.timestamp(ServiceTestPKI.now.addingTimeInterval(-60))
                    refunded["revocationReason"] = .number(JSONNumber(0))
                    refunded["signedDate"] = JWSSamplePayload.timestamp(NotificationServiceTests.signed.addingTimeInterval(60))
                    try await b.apply(LedgerUpdate(source: .notification, transactions: [
                        try #require(LedgerTransaction(
                            verified: try JWSTransactionPayload(fields: refunded), jws: try C.sign(refunded),
                            environment: .production, source: .notification))
                    ]))
                    let afterB = try await answers(clientB)
                    #expect(afterB != fromA)
                    // The other instance's snapshot cache hears the change (its listener), a moment later.
                    var afterA = try await answers(clientA)
                    for _ in 0..<50 where afterA != afterB {
                        try await Task.sleep(for: .milliseconds(100))
                        afterA = try await answers(clientA)
                    }
                    #expect(afterA == afterB)
                    #expect(afterB[4].contains("\"refunded\""))
                }
            }
        }
    }
}
