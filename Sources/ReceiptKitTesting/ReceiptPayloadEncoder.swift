import Foundation
import ReceiptKit

/// Encodes an ``AppReceipt`` into the receipt payload, `SET OF ReceiptAttribute`, in the field order Apple uses
/// for the typed fields, followed by ``AppReceipt/otherAttributes`` as given.
enum ReceiptPayloadEncoder {
    static func encode(_ receipt: AppReceipt) -> [UInt8] {
        var attributes: [[UInt8]] = []
        func add(_ type: Int64, _ value: [UInt8]?) {
            guard let value else { return }
            attributes.append(
                DERWriter.definite(
                    0x30,
                    DERWriter.integer(type) + DERWriter.integer(1) + DERWriter.definite(0x04, value)
                )
            )
        }
        add(0, receipt.environment.map { Self.utf8($0.rawValue) })
        add(1, receipt.appItemIdentifier.map(DERWriter.integer))
        add(2, receipt.bundleIdentifierData ?? receipt.bundleIdentifier.map(Self.utf8))
        add(3, receipt.appVersion.map(Self.utf8))
        add(4, receipt.opaqueValue)
        add(5, receipt.sha1Hash)
        add(10, receipt.ageRating.map(Self.utf8))
        add(12, receipt.creationDate.map(Self.date))
        add(15, receipt.downloadIdentifier.map(DERWriter.integer))
        add(16, receipt.versionExternalIdentifier.map(DERWriter.integer))
        for purchase in receipt.inAppPurchases {
            add(17, Self.encode(purchase))
        }
        add(18, receipt.originalPurchaseDate.map(Self.date))
        add(19, receipt.originalAppVersion.map(Self.utf8))
        add(21, receipt.expirationDate.map(Self.date))
        for attribute in receipt.otherAttributes {
            attributes.append(
                DERWriter.definite(
                    0x30,
                    DERWriter.integer(attribute.type) + DERWriter.integer(attribute.version)
                        + DERWriter.definite(0x04, Array(attribute.value))
                )
            )
        }
        return DERWriter.definite(0x31, attributes.flatMap { $0 })
    }

    static func encode(_ purchase: InAppPurchase) -> [UInt8] {
        var attributes: [[UInt8]] = []
        func add(_ type: Int64, _ value: [UInt8]?) {
            guard let value else { return }
            attributes.append(
                DERWriter.definite(
                    0x30,
                    DERWriter.integer(type) + DERWriter.integer(1) + DERWriter.definite(0x04, value)
                )
            )
        }
        add(1701, purchase.quantity.map(DERWriter.integer))
        add(1702, purchase.productIdentifier.map(Self.utf8))
        add(1703, purchase.transactionIdentifier.map(Self.utf8))
        add(1704, purchase.purchaseDate.map(Self.date))
        add(1705, purchase.originalTransactionIdentifier.map(Self.utf8))
        add(1706, purchase.originalPurchaseDate.map(Self.date))
        add(1707, purchase.productType.map(DERWriter.integer))
        add(1708, purchase.expiresDate.map(Self.date))
        add(1711, purchase.webOrderLineItemIdentifier.map(DERWriter.integer))
        add(1712, purchase.cancellationDate.map(Self.date))
        add(1713, purchase.isTrialPeriod.map { DERWriter.integer($0 ? 1 : 0) })
        add(1719, purchase.isInIntroOfferPeriod.map { DERWriter.integer($0 ? 1 : 0) })
        add(1721, purchase.promotionalOfferIdentifier.map(Self.utf8))
        for attribute in purchase.otherAttributes {
            attributes.append(
                DERWriter.definite(
                    0x30,
                    DERWriter.integer(attribute.type) + DERWriter.integer(attribute.version)
                        + DERWriter.definite(0x04, Array(attribute.value))
                )
            )
        }
        return DERWriter.definite(0x31, attributes.flatMap { $0 })
    }

    static func utf8(_ string: String) -> [UInt8] {
        DERWriter.definite(0x0C, Array(string.utf8))
    }

    /// An IA5String RFC 3339 timestamp in UTC, with milliseconds only when they are not zero.
    static func date(_ date: Date) -> [UInt8] {
        let ms = date.epochMilliseconds
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let fraction = ms - seconds * 1000
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        if fraction != 0 {
            text = String(text.dropLast()) + String(format: ".%03dZ", Int(fraction))
        }
        return DERWriter.definite(0x16, Array(text.utf8))
    }
}
