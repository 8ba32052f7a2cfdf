import struct Foundation.Date
import ReceiptKit
import _ReceiptKitShared

extension PendingRenewalInfo {
    /// The table: verifyReceipt key, property and format, one row each, sorted by key (the order the JSON is
    /// written in). A new key is one row here and its property.
    static let fields: [Field] = [
        .string("auto_renew_product_id", \.autoRenewProductIdentifier),
        .digits("auto_renew_status", \.autoRenewStatus),
        .digits("expiration_intent", \.expirationIntent),
        .date("grace_period_expires_date", \.gracePeriodExpiresDate),
        .flag("is_in_billing_retry_period", \.isInBillingRetryPeriod),
        .string("offer_code_ref_name", \.offerCodeReferenceName),
        .string("original_transaction_id", \.originalTransactionIdentifier),
        .digits("price_increase_status", \.priceIncreaseStatus),
        .string("product_id", \.productIdentifier),
        .string("promotional_offer_id", \.promotionalOfferIdentifier),
    ]

    /// A row of the table: the key and how the property's value is written.
    enum Field: Sendable {
        case string(StaticString, any KeyPath<PendingRenewalInfo, String?> & Sendable)
        /// An integer as a string of digits (`"auto_renew_status":"1"`).
        case digits(StaticString, any KeyPath<PendingRenewalInfo, Int64?> & Sendable)
        /// `"1"` or `"0"`, as Apple writes `is_in_billing_retry_period`.
        case flag(StaticString, any KeyPath<PendingRenewalInfo, Bool?> & Sendable)
        /// `key`, `key_ms` and `key_pst`.
        case date(StaticString, any KeyPath<PendingRenewalInfo, Date?> & Sendable)

        var key: StaticString {
            switch self {
            case .string(let key, _), .digits(let key, _), .flag(let key, _), .date(let key, _): key
            }
        }

        func write(_ info: PendingRenewalInfo, to json: inout JSONWriter) {
            switch self {
            case .string(let key, let path):
                guard let value = info[keyPath: path] else { return }
                json.key(key)
                json.string(value)
            case .digits(let key, let path):
                guard let value = info[keyPath: path] else { return }
                json.key(key)
                json.integerString(value)
            case .flag(let key, let path):
                guard let value = info[keyPath: path] else { return }
                json.key(key)
                json.literal(value ? "\"1\"" : "\"0\"")
            case .date(let key, let path):
                VerifyReceiptDateFormat.write(info[keyPath: path], key: key, to: &json)
            }
        }
    }
}
