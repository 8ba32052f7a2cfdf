import AppStorePKI
import AppStoreJWS
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
import ReceiptService
import LedgerTestSupport
import Testing

/// `/verifyReceipt` answers with everything the ledger knows, whatever taught it: receipts posted to it and signed
/// notifications, over HTTP on every backend. The scenarios of issue 34: renewals and refunds learnt from
/// notifications appear in `latest_receipt_info`, and `latest_receipt` stays the newest receipt.
@Suite("verifyReceipt answers with what the ledger knows")
struct LedgerAnswerTests {
    typealias H = ServiceHarness
    typealias N = NotificationServiceTests

    static let original = "2000000000000001"
    static let renewal = "2000000000000002"

    /// The receipt holding transaction …1, minted by the receipt test CA (created in 2023, long before the
    /// notifications).
    static func receipt() throws -> [UInt8] {
        try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase(Self.original, original: Self.original, product: "com.example.app.pro", day: 1)
        ]))
    }

    /// Both test CAs: receipts are signed by one, App Store signed data by the other.
    static func configuration() throws -> VerifyReceiptConfiguration {
        let anchors = AppStoreTrustAnchors([try ServiceTestPKI.ca.root.certificate, try N.authority.get().root.certificate])
        return try H.configuration { $0.anchors = anchors }
    }

    static func notify(_ client: any TestClientProtocol, _ body: [UInt8]) async throws {
        try await client.execute(uri: "/notifications/v2", method: .post, body: ByteBuffer(bytes: body)) { response in
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains(#""status":"recorded""#))
        }
    }

    static func ids(_ object: [String: Any]) -> [String]? {
        (object["latest_receipt_info"] as? [[String: Any]])?.compactMap { $0["transaction_id"] as? String }
    }

    @Test("a renewal learnt from notifications joins latest_receipt_info; latest_receipt stays the receipt",
          arguments: LedgerBackend.available)
    func renewalFromNotifications(backend: LedgerBackend) async throws {
        let receipt = try Self.receipt()
        let subscribed = try N.body(type: "SUBSCRIBED", signed: N.signed, transaction: N.transaction(Self.original))
        let renewed = N.signed.addingTimeInterval(1800)
        let didRenew = try N.body(type: "DID_RENEW", signed: renewed, transaction: N.transaction(Self.renewal, signed: renewed) {
            $0["purchaseDate"] = .number(AppStoreTimestamp(renewed).number)
            $0["expiresDate"] = .number(AppStoreTimestamp(renewed.addingTimeInterval(30 * 86_400)).number)
        })
        try await backend.withLedger { ledger in
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let first = try await H.post(client, body: H.body(receipt))
                #expect(first["status"] as? Int == 0)
                #expect(Self.ids(first) == [Self.original])
                try await Self.notify(client, subscribed)
                try await Self.notify(client, didRenew)

                let object = try await H.post(client, body: H.body(receipt))
                #expect(object["status"] as? Int == 0)
                #expect(Self.ids(object) == [Self.renewal, Self.original])
                #expect(object["latest_receipt"] as? String == Data(receipt).base64EncodedString())
                let info = try #require(object["latest_receipt_info"] as? [[String: Any]])
                #expect(info.first?["expires_date_ms"] as? String == "\(renewed.addingTimeInterval(30 * 86_400).epochMilliseconds)")
                #expect(info.first?["subscription_group_identifier"] as? String == "21000001")
                let pending = try #require(object["pending_renewal_info"] as? [[String: Any]])
                #expect(pending.compactMap { $0["original_transaction_id"] as? String } == [Self.original])
                #expect(pending.first?["auto_renew_status"] as? String == "1")

                let excluded = try await H.post(client, body: H.body(receipt, excludeOld: true))
                #expect(Self.ids(excluded) == [Self.renewal])
            }
        }
    }

    @Test("a refund learnt from a notification carries cancellation_date* and cancellation_reason",
          arguments: LedgerBackend.available)
    func refundFromNotification(backend: LedgerBackend) async throws {
        let receipt = try Self.receipt()
        let revoked = N.signed.addingTimeInterval(600)
        let refund = try N.body(type: "REFUND", signed: revoked, transaction: N.transaction(Self.original, signed: revoked) {
            $0["revocationDate"] = .number(AppStoreTimestamp(revoked).number)
            $0["revocationReason"] = .number(JSONNumber(1))
        })
        try await backend.withLedger { ledger in
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                #expect(try await H.post(client, body: H.body(receipt))["status"] as? Int == 0)
                try await Self.notify(client, refund)

                let object = try await H.post(client, body: H.body(receipt))
                #expect(object["status"] as? Int == 0)
                #expect(object["latest_receipt"] as? String == Data(receipt).base64EncodedString())
                let info = try #require(object["latest_receipt_info"] as? [[String: Any]])
                #expect(info.count == 1)
                let row = try #require(info.first)
                #expect(row["transaction_id"] as? String == Self.original)
                #expect(row["cancellation_date_ms"] as? String == "\(revoked.epochMilliseconds)")
                #expect(row["cancellation_date"] as? String == "2025-06-15 14:16:40 Etc/GMT")
                #expect(row["cancellation_date_pst"] as? String == "2025-06-15 07:16:40 America/Los_Angeles")
                #expect(row["cancellation_reason"] as? String == "1")
            }
        }
    }

    @Test("a receipt created after a refund, without the refund in it, does not clear the cancellation Apple signed",
          arguments: LedgerBackend.available)
    func laterReceiptKeepsRefund(backend: LedgerBackend) async throws {
        let revoked = Date(timeIntervalSince1970: 1_749_900_000)  // a day before the service's clock
        let refund = try N.body(type: "REFUND", signed: revoked, transaction: N.transaction(Self.original, signed: revoked) {
            $0["revocationDate"] = .number(AppStoreTimestamp(revoked).number)
            $0["revocationReason"] = .number(JSONNumber(0))
        })
        // Created after the refund (day 896 from 2023-01-01: 2025-06-15 00:00 UTC), its purchase uncancelled.
        let later = try ServiceTestPKI.mint(ServiceTestPKI.receipt(createdDay: 896, purchases: [
            ServiceTestPKI.purchase(Self.original, original: Self.original, product: "com.example.app.pro", day: 1)
        ]))
        try await backend.withLedger { ledger in
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                #expect(try await H.post(client, body: H.body(Self.receipt()))["status"] as? Int == 0)
                try await Self.notify(client, refund)

                let object = try await H.post(client, body: H.body(later))
                #expect(object["status"] as? Int == 0)
                #expect(object["latest_receipt"] as? String == Data(later).base64EncodedString())
                let row = try #require((object["latest_receipt_info"] as? [[String: Any]])?.first)
                #expect(row["transaction_id"] as? String == Self.original)
                #expect(row["cancellation_date_ms"] as? String == "\(revoked.epochMilliseconds)")
                #expect(row["cancellation_reason"] as? String == "0")
            }
        }
    }

    @Test("a notification before any receipt: the receipt posted later is the latest_receipt",
          arguments: LedgerBackend.available)
    func notificationFirst(backend: LedgerBackend) async throws {
        let receipt = try Self.receipt()
        let subscribed = try N.body(type: "SUBSCRIBED", transaction: N.transaction(Self.original))
        try await backend.withLedger { ledger in
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                try await Self.notify(client, subscribed)
                let object = try await H.post(client, body: H.body(receipt))
                #expect(object["status"] as? Int == 0)
                #expect(Self.ids(object) == [Self.original])
                #expect(object["latest_receipt"] as? String == Data(receipt).base64EncodedString())
            }
        }
    }
}

extension LedgerAnswerTests {
    /// `latest_receipt_info` as the service wrote it before signed data joined it (captured from `main`), for a
    /// receipt posted twice: its rows (1001, 7000, 1000: newest first) and their keys, byte for byte.
    static let receiptOnlyRows = [
        Self.row(#""expires_date":"2023-03-03 00:00:00 Etc/GMT""#, #""expires_date_ms":"1677801600000""#,
                 #""expires_date_pst":"2023-03-02 16:00:00 America/Los_Angeles""#, #""is_trial_period":"false""#,
                 #""original_purchase_date":"2023-02-01 00:00:00 Etc/GMT""#,
                 #""original_purchase_date_ms":"1675209600000""#,
                 #""original_purchase_date_pst":"2023-01-31 16:00:00 America/Los_Angeles""#,
                 #""original_transaction_id":"1000""#, #""product_id":"com.example.monthly""#,
                 #""product_type":"3""#, #""purchase_date":"2023-02-01 00:00:00 Etc/GMT""#,
                 #""purchase_date_ms":"1675209600000""#,
                 #""purchase_date_pst":"2023-01-31 16:00:00 America/Los_Angeles""#, #""quantity":"1""#,
                 #""transaction_id":"1001""#),
        Self.row(#""is_trial_period":"false""#, #""original_purchase_date":"2023-01-03 00:00:00 Etc/GMT""#,
                 #""original_purchase_date_ms":"1672704000000""#,
                 #""original_purchase_date_pst":"2023-01-02 16:00:00 America/Los_Angeles""#,
                 #""original_transaction_id":"7000""#, #""product_id":"com.example.coins""#, #""product_type":"1""#,
                 #""purchase_date":"2023-01-03 00:00:00 Etc/GMT""#, #""purchase_date_ms":"1672704000000""#,
                 #""purchase_date_pst":"2023-01-02 16:00:00 America/Los_Angeles""#, #""quantity":"1""#,
                 #""transaction_id":"7000""#),
        Self.row(#""expires_date":"2023-02-01 00:00:00 Etc/GMT""#, #""expires_date_ms":"1675209600000""#,
                 #""expires_date_pst":"2023-01-31 16:00:00 America/Los_Angeles""#, #""is_trial_period":"false""#,
                 #""original_purchase_date":"2023-01-02 00:00:00 Etc/GMT""#,
                 #""original_purchase_date_ms":"1672617600000""#,
                 #""original_purchase_date_pst":"2023-01-01 16:00:00 America/Los_Angeles""#,
                 #""original_transaction_id":"1000""#, #""product_id":"com.example.monthly""#,
                 #""product_type":"3""#, #""purchase_date":"2023-01-02 00:00:00 Etc/GMT""#,
                 #""purchase_date_ms":"1672617600000""#,
                 #""purchase_date_pst":"2023-01-01 16:00:00 America/Los_Angeles""#, #""quantity":"1""#,
                 #""transaction_id":"1000""#),
    ]

    static let receiptOnlyInfo = Self.receiptOnlyRows.joined(separator: ",")

    /// The `receipt` object of the same answer: the receipt's fields, its `in_app` in the receipt's order (the
    /// same rows as `latest_receipt_info`) and the request date.
    static let receiptOnlyReceipt = #"{"adam_id":1234567890,"app_item_id":1234567890,"application_version":"42","#
        + #""bundle_id":"com.example.app","in_app":["#
        + [Self.receiptOnlyRows[2], Self.receiptOnlyRows[0], Self.receiptOnlyRows[1]].joined(separator: ",")
        + #"],"opaque_value":"AQIDBAUGBwg=","original_application_version":"1.0","#
        + #""original_purchase_date":"2020-09-13 12:26:40 Etc/GMT","original_purchase_date_ms":"1600000000000","#
        + #""original_purchase_date_pst":"2020-09-13 05:26:40 America/Los_Angeles","#
        + #""receipt_creation_date":"2023-04-11 00:00:00 Etc/GMT","receipt_creation_date_ms":"1681171200000","#
        + #""receipt_creation_date_pst":"2023-04-10 17:00:00 America/Los_Angeles","receipt_type":"Production","#
        + #""request_date":"2025-06-15 15:06:40 Etc/GMT","request_date_ms":"1750000000000","#
        + #""request_date_pst":"2025-06-15 08:06:40 America/Los_Angeles"}"#

    /// One `latest_receipt_info` element from its `"key":"value"` members, in order.
    static func row(_ members: String...) -> String { "{" + members.joined(separator: ",") + "}" }

    @Test("a receipt without notifications is answered byte for byte as before", arguments: LedgerBackend.available)
    func receiptOnlyAnswerIsUnchanged(backend: LedgerBackend) async throws {
        let receipt = try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase("1000", original: "1000", day: 1),
            ServiceTestPKI.purchase("1001", original: "1000", day: 31),
            ServiceTestPKI.purchase("7000", original: "7000", product: "com.example.coins", day: 2, subscription: false),
        ]))
        try await backend.withLedger { ledger in
            let verifier = try ServiceComponents(configuration: try H.configuration(), ledger: ledger, now: { ServiceTestPKI.now }).verifier
            let body = Array(H.body(receipt).readableBytesView)
            for _ in 0..<2 {
                let answer = String(decoding: await verifier.answer(body: body, endpoint: .production).body, as: UTF8.self)
                let expected = #"{"environment":"Production","latest_receipt":""# + Data(receipt).base64EncodedString()
                    + #"","latest_receipt_info":["# + Self.receiptOnlyInfo + #"],"receipt":"#
                    + Self.receiptOnlyReceipt + #","status":0}"#
                #expect(answer == expected)
                #expect(!answer.contains("pending_renewal_info"))
            }
        }
    }
}
