import Foundation
import ReceiptKit

/// Invariants every harness asserts. A violation traps, which libFuzzer reports as a crash with its input.
public enum FuzzChecks {
    /// Reads every property, including the deferred ones, and round-trips the JSON form.
    public static func touchEverything(_ receipt: AppReceipt) {
        var checksum = receipt.otherAttributes.count
        for purchase in receipt.inAppPurchases {
            checksum &+= purchase.productIdentifier?.utf8.count ?? 0
            checksum &+= purchase.transactionIdentifier?.utf8.count ?? 0
            checksum &+= purchase.originalTransactionIdentifier?.utf8.count ?? 0
            checksum &+= purchase.promotionalOfferIdentifier?.utf8.count ?? 0
            checksum &+= purchase.otherAttributes.reduce(0) { $0 &+ $1.value.count }
        }
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? sorted.encode(receipt) else {
            preconditionFailure("a decoded receipt must encode to JSON (checksum \(checksum))")
        }
        // The direct writer must produce exactly the Codable form's bytes, whatever the receipt holds.
        precondition(receipt.verifyReceiptJSON() == [UInt8](json), "verifyReceiptJSON() differs from JSONEncoder")
        guard let decoded = try? JSONDecoder().decode(AppReceipt.self, from: json) else {
            preconditionFailure("ReceiptKit's JSON must decode again")
        }
        // JSON omits raw attributes; everything it carries must survive the trip.
        precondition(decoded.bundleIdentifier == receipt.bundleIdentifier)
        precondition(decoded.inAppPurchases.count == receipt.inAppPurchases.count)
        for (a, b) in zip(decoded.inAppPurchases, receipt.inAppPurchases) {
            precondition(a.productIdentifier == b.productIdentifier)
            precondition(a.purchaseDate?.epochMilliseconds == b.purchaseDate?.epochMilliseconds)
        }
    }

    /// Whether any date of the receipt lies outside years 1 through 9999.
    public static func hasUnrepresentableDate(_ receipt: AppReceipt) -> Bool {
        let low = Date(epochMilliseconds: -62_135_596_800_000)  // 0001-01-01
        let high = Date(epochMilliseconds: 253_402_300_799_000)  // 9999-12-31T23:59:59
        var dates = [receipt.creationDate, receipt.originalPurchaseDate, receipt.expirationDate]
        for purchase in receipt.inAppPurchases {
            dates += [purchase.purchaseDate, purchase.originalPurchaseDate, purchase.expiresDate, purchase.cancellationDate]
        }
        return dates.contains { $0.map { $0 < low || $0 > high } ?? false }
    }

    /// The DER UTF8String Apple stores a bundle identifier as (what decoding keeps as its raw bytes).
    public static func derUTF8String(_ string: String) -> [UInt8] {
        let content = Array(string.utf8)
        var length: [UInt8] = []
        var n = content.count
        if n < 0x80 {
            length = [UInt8(n)]
        } else {
            while n > 0 {
                length.insert(UInt8(truncatingIfNeeded: n), at: 0)
                n >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [0x0C] + length + content
    }
}
