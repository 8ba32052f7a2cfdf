import Foundation
import ReceiptKit
import ReceiptKitTesting
import Testing

/// `receiptkit mint receipt --purchase`'s spec: the compact head and the `;key=value` attributes subscriptions and
/// refunds need; every malformed spec is `malformed_purchase_spec` with the reason.
@Suite("Purchase spec")
struct PurchaseSpecTests {
    static let created = Date(timeIntervalSince1970: 1_750_000_000)
    static func time(_ text: String) -> Date? { RFC3339.date(text) }

    @Test("the compact head alone: the transaction is its own original, bought when the receipt was made")
    func head() throws {
        let purchase = try ReceiptMinter.purchase(spec: "com.example.coins,2000,5", date: Self.created)
        #expect(purchase.productIdentifier == "com.example.coins")
        #expect(purchase.transactionIdentifier == "2000")
        #expect(purchase.originalTransactionIdentifier == "2000")
        #expect(purchase.quantity == 5)
        #expect(purchase.purchaseDate == Self.created && purchase.originalPurchaseDate == Self.created)
        #expect(purchase.expiresDate == nil && purchase.productType == nil)
    }

    @Test("a renewal that was refunded: original, dates, expiry (a subscription), cancellation, offer flags")
    func subscription() throws {
        let spec = "com.example.monthly,1001;original=1000;purchased=2025-06-01T00:00:00Z;"
            + "original_purchased=2025-05-01T00:00:00Z;expires=2025-07-01T00:00:00Z;cancelled=2025-06-10T00:00:00Z;"
            + "trial=false;intro=true;web_order=77"
        let purchase = try ReceiptMinter.purchase(spec: spec, date: Self.created)
        #expect(purchase.originalTransactionIdentifier == "1000")
        #expect(purchase.purchaseDate == Self.time("2025-06-01T00:00:00Z"))
        #expect(purchase.originalPurchaseDate == Self.time("2025-05-01T00:00:00Z"))
        #expect(purchase.expiresDate == Self.time("2025-07-01T00:00:00Z"))
        #expect(purchase.productType == 3)
        #expect(purchase.cancellationDate == Self.time("2025-06-10T00:00:00Z"))
        #expect(purchase.isTrialPeriod == false && purchase.isInIntroOfferPeriod == true)
        #expect(purchase.webOrderLineItemIdentifier == 77)
        // Without original_purchased, the original purchase is the purchase; type overrides the subscription's 3.
        let plain = try ReceiptMinter.purchase(spec: "p,1;purchased=2025-06-01T00:00:00Z;type=1;expires=2025-07-01T00:00:00Z", date: nil)
        #expect(plain.originalPurchaseDate == Self.time("2025-06-01T00:00:00Z"))
        #expect(plain.productType == 1)
    }

    @Test("malformed specs name what is wrong", arguments: [
        ("p,1;colour=red", "'p,1;colour=red': unknown key 'colour' (original, purchased, original_purchased, expires, cancelled, trial, intro, web_order, type)"),
        ("p,1;expires", "'p,1;expires': 'expires' is not key=value"),
        ("p,1;trial=yes", "'p,1;trial=yes': trial takes true or false, not 'yes'"),
        ("p,1;expires=tomorrow", "'p,1;expires=tomorrow': expires takes an RFC 3339 time, not 'tomorrow'"),
        ("p,1;trial=true;trial=false", "'p,1;trial=true;trial=false': trial is given twice"),
        ("p,1;original=", "'p,1;original=': original is empty"),
        ("p,1;web_order=-3", "'p,1;web_order=-3': web_order takes a whole number, not '-3'"),
        (";expires=2025-07-01T00:00:00Z", "';expires=2025-07-01T00:00:00Z' is not product_id[,transaction_id[,quantity]][;key=value]…"),
    ])
    func malformed(spec: String, reason: String) {
        let error = #expect(throws: MintingError.self) { _ = try ReceiptMinter.purchase(spec: spec, date: nil) }
        #expect(error?.code == .malformedPurchaseSpec)
        #expect(error?.reason == reason)
    }
}
