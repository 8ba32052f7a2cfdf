package import struct Foundation.Date
import ReceiptKit
import _ReceiptKitShared

/// A verifyReceipt `pending_renewal_info` element, as the ledger stores and serves it: what signed renewal
/// information or a notification says about a subscription's next renewal. Its keys and formats are one table
/// (``fields``); whoever learns the values (the service, from App Store signed data) sets the properties.
package struct PendingRenewalInfo: Sendable, Hashable {
    package var autoRenewProductIdentifier: String?
    package var autoRenewStatus: Int64?
    package var expirationIntent: Int64?
    package var gracePeriodExpiresDate: Date?
    package var isInBillingRetryPeriod: Bool?
    package var offerCodeReferenceName: String?
    package var originalTransactionIdentifier: String?
    package var priceIncreaseStatus: Int64?
    package var productIdentifier: String?
    package var promotionalOfferIdentifier: String?

    /// Information with every field absent.
    package init() {}

    /// The element as UTF-8 JSON, keys in byte order as the rest of a verifyReceipt response; absent values
    /// omitted.
    package func verifyReceiptJSON() -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        json.beginObject()
        for field in Self.fields {
            field.write(self, to: &json)
        }
        json.endObject()
        return json.bytes
    }
}
