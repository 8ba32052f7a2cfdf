import SharedFixtures
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptKit
import ReceiptLedger
import ReceiptService
import Testing

/// The shared real receipts through the service: each answered on its own endpoint with the receipt JSON the
/// library (and `receiptkit inspect --json`) produces, refused on the other with 21007/21008.
@Suite("Real receipts through verifyReceipt", .enabled(if: RealReceipts.available, Comment(rawValue: RealReceipts.skipMessage)))
struct RealReceiptServiceTests {
    typealias H = ServiceHarness

    @Test("every fixture, on both endpoints, with and without Xcode receipts allowed", arguments: RealReceipts.receiptNames)
    func fixture(name: String) async throws {
        let bytes = try RealReceipts.bytes(name)
        let decoded = try AppReceipt(berEncoded: bytes)
        let expectedJSON = decoded.verifyReceiptJSON()
        let kind = decoded.environment?.rawValue ?? "Production"
        for allowXcode in [false, true] {
            var configuration = VerifyReceiptConfiguration()
            configuration.allowsXcodeReceipts = allowXcode
            // Not a test of the limits: a CI run (2026-12-03, two loaded cores) stalled a body past the 3 s default
            // and got 408.
            configuration.bodyStallTimeout = .seconds(60)
            configuration.requestTimeout = .seconds(120)
            configuration.headerReadTimeout = .seconds(60)
            let settings = configuration
            try await H.withMemoryLedger { ledger in
                try await H.withLiveService(settings, ledger: ledger) { client, _ in
                    let production = try await H.post(client, body: H.body(bytes))
                    let sandbox = try await H.post(client, "/sandbox/verifyReceipt", body: H.body(bytes))
                    let (home, away, awayStatus): ([String: Any], [String: Any], Int)
                    switch kind {
                    case "Production": (home, away, awayStatus) = (production, sandbox, 21008)
                    case "Xcode" where !allowXcode:
                        #expect(production["status"] as? Int == 21003 && sandbox["status"] as? Int == 21003, "\(name)")
                        #expect(production["reasons"] as? [String] == ["xcode_receipt_not_allowed"])
                        return
                    default: (home, away, awayStatus) = (sandbox, production, 21007)
                    }
                    #expect(home["status"] as? Int == 0, "\(name): \(home["reasons"] ?? "")")
                    #expect(away["status"] as? Int == awayStatus, "\(name)")
                    var served = try #require(home["receipt"] as? [String: Any], "\(name)")
                    for key in ["request_date", "request_date_ms", "request_date_pst"] {
                        #expect(served.removeValue(forKey: key) != nil)
                    }
                    let expectedReceipt = try #require(
                        try JSONSerialization.jsonObject(with: Data(expectedJSON)) as? [String: Any])
                    #expect(NSDictionary(dictionary: served).isEqual(to: expectedReceipt), "\(name)")
                    // Every purchase with a transaction id is in the ledger's answer.
                    let ids = Set(decoded.inAppPurchases.compactMap(\.transactionIdentifier))
                    let served_ids = Set(((home["latest_receipt_info"] as? [[String: Any]]) ?? []).compactMap { $0["transaction_id"] as? String })
                    #expect(served_ids == ids, "\(name)")
                }
            }
        }
    }
}
