import Foundation
import ReceiptLedger
import Testing

/// `PendingRenewalInfo` writes verifyReceipt's `pending_renewal_info` element from one table of keys: every key in
/// byte order, each in Apple's format, absent ones omitted.
@Suite struct PendingRenewalInfoTests {
    @Test func everyKeyInByteOrderAndApplesFormats() {
        var info = PendingRenewalInfo()
        info.autoRenewProductIdentifier = "com.example.app.pro"
        info.autoRenewStatus = 1
        info.expirationIntent = 2
        info.gracePeriodExpiresDate = Date(timeIntervalSince1970: 1_700_000_000)
        info.isInBillingRetryPeriod = true
        info.offerCodeReferenceName = "SPRING"
        info.originalTransactionIdentifier = "1000"
        info.priceIncreaseStatus = 0
        info.productIdentifier = "com.example.app.basic"
        info.promotionalOfferIdentifier = "promo"
        let expected = #"{"auto_renew_product_id":"com.example.app.pro","auto_renew_status":"1","expiration_intent":"2","#
            + #""grace_period_expires_date":"2023-11-14 22:13:20 Etc/GMT","grace_period_expires_date_ms":"1700000000000","#
            + #""grace_period_expires_date_pst":"2023-11-14 14:13:20 America/Los_Angeles","is_in_billing_retry_period":"1","#
            + #""offer_code_ref_name":"SPRING","original_transaction_id":"1000","price_increase_status":"0","#
            + #""product_id":"com.example.app.basic","promotional_offer_id":"promo"}"#
        #expect(String(decoding: info.verifyReceiptJSON(), as: UTF8.self) == expected)

        var sparse = PendingRenewalInfo()
        sparse.originalTransactionIdentifier = "1000"
        sparse.isInBillingRetryPeriod = false
        #expect(String(decoding: sparse.verifyReceiptJSON(), as: UTF8.self)
            == #"{"is_in_billing_retry_period":"0","original_transaction_id":"1000"}"#)
    }
}
