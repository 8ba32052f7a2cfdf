import Foundation
import ReceiptKit

/// Encodes an ``AppReceipt`` into the receipt payload, `SET OF ReceiptAttribute`, in the field order Apple uses
/// for the typed fields, followed by ``AppReceipt/otherAttributes`` as given.
enum ReceiptPayloadEncoder {
    /// Collects `ReceiptAttribute` SEQUENCEs and closes them into a SET.
    private struct AttributeSet {
        var content: [UInt8] = []

        mutating func add(_ type: Int64, _ value: [UInt8]?, version: Int64 = 1) {
            guard let value else { return }
            self.content += DERWriter.definite(
                0x30,
                DERWriter.integer(type) + DERWriter.integer(version) + DERWriter.definite(0x04, value)
            )
        }

        mutating func add(_ attributes: [ReceiptAttribute]) {
            for attribute in attributes {
                self.add(attribute.type, Array(attribute.value), version: attribute.version)
            }
        }

        var encoded: [UInt8] { DERWriter.definite(0x31, self.content) }
    }

    static func encode(_ receipt: AppReceipt) -> [UInt8] {
        var set = AttributeSet()
        set.add(0, receipt.environment.map { Self.utf8($0.rawValue) })
        set.add(1, receipt.appItemIdentifier.map(DERWriter.integer))
        set.add(2, receipt.bundleIdentifierData ?? receipt.bundleIdentifier.map(Self.utf8))
        set.add(3, receipt.appVersion.map(Self.utf8))
        set.add(4, receipt.opaqueValue)
        set.add(5, receipt.sha1Hash)
        set.add(10, receipt.ageRating.map(Self.utf8))
        set.add(12, receipt.creationDate.map(Self.date))
        set.add(15, receipt.downloadIdentifier.map(DERWriter.integer))
        set.add(16, receipt.versionExternalIdentifier.map(DERWriter.integer))
        for purchase in receipt.inAppPurchases {
            set.add(17, Self.encode(purchase))
        }
        set.add(18, receipt.originalPurchaseDate.map(Self.date))
        set.add(19, receipt.originalAppVersion.map(Self.utf8))
        set.add(21, receipt.expirationDate.map(Self.date))
        set.add(receipt.otherAttributes)
        return set.encoded
    }

    static func encode(_ purchase: InAppPurchase) -> [UInt8] {
        var set = AttributeSet()
        set.add(1701, purchase.quantity.map(DERWriter.integer))
        set.add(1702, purchase.productIdentifier.map(Self.utf8))
        set.add(1703, purchase.transactionIdentifier.map(Self.utf8))
        set.add(1704, purchase.purchaseDate.map(Self.date))
        set.add(1705, purchase.originalTransactionIdentifier.map(Self.utf8))
        set.add(1706, purchase.originalPurchaseDate.map(Self.date))
        set.add(1707, purchase.productType.map(DERWriter.integer))
        set.add(1708, purchase.expiresDate.map(Self.date))
        set.add(1711, purchase.webOrderLineItemIdentifier.map(DERWriter.integer))
        set.add(1712, purchase.cancellationDate.map(Self.date))
        set.add(1713, purchase.isTrialPeriod.map { DERWriter.integer($0 ? 1 : 0) })
        set.add(1719, purchase.isInIntroOfferPeriod.map { DERWriter.integer($0 ? 1 : 0) })
        set.add(1721, purchase.promotionalOfferIdentifier.map(Self.utf8))
        set.add(purchase.otherAttributes)
        return set.encoded
    }

    static func utf8(_ string: String) -> [UInt8] {
        DEREncoding.utf8String(string)
    }

    /// An IA5String RFC 3339 timestamp in UTC, with milliseconds only when they are not zero. A date outside
    /// years 0000–9999 is written as it would print, which decoding rejects — as a receipt carrying it should be.
    static func date(_ date: Date) -> [UInt8] {
        let text = RFC3339.string(date) ?? "out-of-range:\(date.epochMilliseconds)"
        return DERWriter.definite(0x16, Array(text.utf8))
    }
}
