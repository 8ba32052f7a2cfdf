import AppStorePKI
import struct Foundation.Date
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

/// Writes verifyReceipt response bodies, keys in byte order like the rest of ReceiptKit's JSON.
///
/// A valid receipt: `environment`, `latest_receipt` and `latest_receipt_info` (when the ledger holds transactions
/// for it, whatever taught it), `pending_renewal_info` (when known), `receipt` (the verifyReceipt `receipt` object with
/// `request_date*`), `status` 0. Anything else: `status`, `reasons`, and `is-retryable` with 21009.
enum VerifyReceiptResponseWriter {
    static func valid(
        receipt: AppReceipt,
        environment: AppStoreEnvironment,
        requestDate: Date,
        history: LedgerHistory,
        postedText: CanonicalBase64?,
        excludeOldTransactions: Bool
    ) -> [UInt8] {
        let transactions = history.latestReceiptInfo(excludingOld: excludeOldTransactions)
        // Room for the whole answer at once (growing copies it): what the ledger wrote is counted, the receipt's
        // own purchases are estimated at their usual size (about 760 bytes each with their three date forms).
        var capacity = 1024 + 900 * receipt.inAppPurchases.count
        if !transactions.isEmpty { capacity += (history.latestReceipt.count + 2) / 3 * 4 }
        for transaction in transactions { capacity += transaction.json.count + 1 }
        for info in history.snapshot.renewalInfo { capacity += info.json.count + 1 }
        var json = JSONWriter(capacity: capacity)
        json.beginObject()
        json.key("environment")
        json.string(environment.rawValue)
        if !transactions.isEmpty {
            json.key("latest_receipt")
            if history.latestIsPosted, let postedText {
                json.string(postedText)
            } else {
                json.base64String(history.latestReceipt)
            }
            json.key("latest_receipt_info")
            json.beginArray()
            for transaction in transactions {
                json.value(json: transaction.json)
            }
            json.endArray()
        }
        if !history.snapshot.renewalInfo.isEmpty {
            json.key("pending_renewal_info")
            json.beginArray()
            for info in history.snapshot.renewalInfo {
                json.value(json: info.json)
            }
            json.endArray()
        }
        json.key("receipt")
        receipt.write(to: &json, requestDate: requestDate)
        json.key("status")
        json.integer(0)
        json.endObject()
        return json.bytes
    }

    static func failure(status: VerifyReceiptStatus, reasons: [ServiceReason], retryable: Bool) -> [UInt8] {
        var json = JSONWriter(capacity: 96)
        json.beginObject()
        if retryable || status == .internalError {
            json.key("is-retryable")
            json.bool(retryable)
        }
        json.key("reasons")
        json.beginArray()
        for reason in reasons {
            json.string(reason.code)
        }
        json.endArray()
        json.key("status")
        json.integer(Int64(status.code))
        json.endObject()
        return json.bytes
    }
}
