import AppStoreJWS
import Foundation
@testable import ReceiptLedger
import Testing

/// The tables from StoreKit 2 signed data to verifyReceipt's `latest_receipt_info` and `pending_renewal_info`
/// elements, field by field against Apple's documentation (`responseBody.Latest_receipt_info`,
/// `responseBody.Pending_renewal_info`), on the values of Apple's documented payload examples
/// (`JWSTransactionDecodedPayload`, `JWSRenewalInfoDecodedPayload`).
@Suite struct VerifyReceiptFieldTests {
    /// Every key Apple documents for `responseBody.Latest_receipt_info`.
    static let latestReceiptInfoKeys: Set<String> = [
        "app_account_token", "cancellation_date", "cancellation_date_ms", "cancellation_date_pst", "cancellation_reason",
        "expires_date", "expires_date_ms", "expires_date_pst", "in_app_ownership_type", "is_in_intro_offer_period",
        "is_trial_period", "is_upgraded", "offer_code_ref_name", "original_purchase_date", "original_purchase_date_ms",
        "original_purchase_date_pst", "original_transaction_id", "product_id", "promotional_offer_id", "purchase_date",
        "purchase_date_ms", "purchase_date_pst", "quantity", "subscription_group_identifier", "transaction_id",
        "web_order_line_item_id",
    ]

    /// Every key Apple documents for `responseBody.Pending_renewal_info`.
    static let pendingRenewalInfoKeys: Set<String> = [
        "auto_renew_product_id", "auto_renew_status", "expiration_intent", "grace_period_expires_date",
        "grace_period_expires_date_ms", "grace_period_expires_date_pst", "is_in_billing_retry_period",
        "offer_code_ref_name", "original_transaction_id", "price_consent_status", "price_increase_status", "product_id",
        "promotional_offer_id",
    ]

    /// Apple's documented transaction example (a refunded, upgraded subscription renewal in an introductory price
    /// period), with `offerType` and `offerDiscountType` as given.
    static func transaction(offerType: Int64 = 1, discount: String = "PAY_AS_YOU_GO") throws -> JWSTransactionPayload {
        try JWSTransactionPayload(fields: [
            "transactionId": .string("23456"), "originalTransactionId": .string("12345"),
            "webOrderLineItemId": .string("34343"), "bundleId": .string("com.example"),
            "productId": .string("com.example.product"), "subscriptionGroupIdentifier": .string("55555"),
            "purchaseDate": .number(JSONNumber(1_698_148_900_000)), "originalPurchaseDate": .number(JSONNumber(1_698_148_800_000)),
            "expiresDate": .number(JSONNumber(1_698_149_000_000)), "quantity": .number(JSONNumber(1)),
            "type": .string("Auto-Renewable Subscription"), "appAccountToken": .string("7e3fb20b-4cdb-47cc-936d-99d65f608138"),
            "inAppOwnershipType": .string("PURCHASED"), "signedDate": .number(JSONNumber(1_698_148_900_000)),
            "revocationReason": .number(JSONNumber(1)), "revocationDate": .number(JSONNumber(1_698_148_950_000)),
            "isUpgraded": .bool(true), "offerType": .number(JSONNumber(offerType)), "offerIdentifier": .string("abc.123"),
            "environment": .string("LocalTesting"), "offerDiscountType": .string(discount),
        ])
    }

    /// Apple's documented renewal information example (a promotional offer, billing retry, a pending price increase).
    static func renewalInfo(offerType: Int64 = 2) throws -> JWSRenewalInfoPayload {
        try JWSRenewalInfoPayload(fields: [
            "expirationIntent": .number(JSONNumber(1)), "originalTransactionId": .string("12345"),
            "autoRenewProductId": .string("com.example.product.2"), "productId": .string("com.example.product"),
            "autoRenewStatus": .number(JSONNumber(1)), "isInBillingRetryPeriod": .bool(true),
            "priceIncreaseStatus": .number(JSONNumber(0)), "gracePeriodExpiresDate": .number(JSONNumber(1_698_148_900_000)),
            "offerType": .number(JSONNumber(offerType)), "offerIdentifier": .string("abc.123"),
            "signedDate": .number(JSONNumber(1_698_148_800_000)), "environment": .string("LocalTesting"),
        ])
    }

    static func keys<S>(_ table: [VerifyReceiptField<S>]) -> [String] {
        table.map { $0.key.description }
    }

    @Test func tablesAreInKeyByteOrderWithoutRepeats() {
        for keys in [Self.keys(JWSTransactionPayload.latestReceiptInfoFields), Self.keys(JWSRenewalInfoPayload.pendingRenewalInfoFields)] {
            #expect(keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
            #expect(Set(keys).count == keys.count)
        }
    }

    @Test("latest_receipt_info: every documented key, each in Apple's format")
    func latestReceiptInfo() throws {
        let json = String(decoding: try Self.transaction().latestReceiptInfoJSON(), as: UTF8.self)
        let expected = #"{"app_account_token":"7e3fb20b-4cdb-47cc-936d-99d65f608138","#
            + #""cancellation_date":"2023-10-24 12:02:30 Etc/GMT","cancellation_date_ms":"1698148950000","#
            + #""cancellation_date_pst":"2023-10-24 05:02:30 America/Los_Angeles","cancellation_reason":"1","#
            + #""expires_date":"2023-10-24 12:03:20 Etc/GMT","expires_date_ms":"1698149000000","#
            + #""expires_date_pst":"2023-10-24 05:03:20 America/Los_Angeles","in_app_ownership_type":"PURCHASED","#
            + #""is_in_intro_offer_period":"true","is_trial_period":"false","is_upgraded":"true","#
            + #""original_purchase_date":"2023-10-24 12:00:00 Etc/GMT","original_purchase_date_ms":"1698148800000","#
            + #""original_purchase_date_pst":"2023-10-24 05:00:00 America/Los_Angeles","original_transaction_id":"12345","#
            + #""product_id":"com.example.product","purchase_date":"2023-10-24 12:01:40 Etc/GMT","#
            + #""purchase_date_ms":"1698148900000","purchase_date_pst":"2023-10-24 05:01:40 America/Los_Angeles","#
            + #""quantity":"1","subscription_group_identifier":"55555","transaction_id":"23456","#
            + #""web_order_line_item_id":"34343"}"#
        #expect(json == expected)

        // The offers: a free trial, a promotional offer, an offer code.
        let trial = try Self.object(try Self.transaction(discount: "FREE_TRIAL").latestReceiptInfoJSON())
        #expect(trial["is_trial_period"] as? String == "true")
        #expect(trial["is_in_intro_offer_period"] as? String == "false")
        let promotional = try Self.object(try Self.transaction(offerType: 2).latestReceiptInfoJSON())
        #expect(promotional["promotional_offer_id"] as? String == "abc.123")
        #expect(promotional["is_trial_period"] as? String == "false")
        let code = try Self.object(try Self.transaction(offerType: 3).latestReceiptInfoJSON())
        #expect(code["offer_code_ref_name"] as? String == "abc.123")
        #expect(code["promotional_offer_id"] == nil)

        // Together they write every documented key, and nothing else.
        let written = Set([trial, promotional, code].flatMap(\.keys))
        #expect(written == Self.latestReceiptInfoKeys)

        // A consumable: no subscription flags, no expiry, nothing about upgrades.
        let consumable = try Self.object(
            try JWSTransactionPayload(fields: [
                "transactionId": .string("9"), "productId": .string("coins"), "isUpgraded": .bool(false),
                "purchaseDate": .number(JSONNumber(1_698_148_900_000)), "quantity": .number(JSONNumber(5)),
            ]).latestReceiptInfoJSON())
        #expect(Set(consumable.keys) == ["original_transaction_id", "product_id", "purchase_date", "purchase_date_ms",
                                         "purchase_date_pst", "quantity", "transaction_id"])
        #expect(consumable["original_transaction_id"] as? String == "9")
        #expect(consumable["quantity"] as? String == "5")
    }

    @Test("pending_renewal_info: every documented key, each in Apple's format")
    func pendingRenewalInfo() throws {
        let json = String(decoding: try Self.renewalInfo().pendingRenewalInfoJSON(), as: UTF8.self)
        let expected = #"{"auto_renew_product_id":"com.example.product.2","auto_renew_status":"1","#
            + #""expiration_intent":"1","grace_period_expires_date":"2023-10-24 12:01:40 Etc/GMT","#
            + #""grace_period_expires_date_ms":"1698148900000","#
            + #""grace_period_expires_date_pst":"2023-10-24 05:01:40 America/Los_Angeles","#
            + #""is_in_billing_retry_period":"1","original_transaction_id":"12345","price_consent_status":"0","#
            + #""price_increase_status":"0","product_id":"com.example.product","promotional_offer_id":"abc.123"}"#
        #expect(json == expected)
        let code = try Self.object(try Self.renewalInfo(offerType: 3).pendingRenewalInfoJSON())
        #expect(code["offer_code_ref_name"] as? String == "abc.123")
        #expect(code["promotional_offer_id"] == nil)
        let written = Set(try Self.object(try Self.renewalInfo().pendingRenewalInfoJSON()).keys).union(code.keys)
        #expect(written == Self.pendingRenewalInfoKeys)

        let sparse = try JWSRenewalInfoPayload(fields: [
            "originalTransactionId": .string("1000"), "isInBillingRetryPeriod": .bool(false),
        ])
        #expect(String(decoding: sparse.pendingRenewalInfoJSON(), as: UTF8.self)
            == #"{"is_in_billing_retry_period":"0","original_transaction_id":"1000"}"#)
    }

    static func object(_ json: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
    }
}
