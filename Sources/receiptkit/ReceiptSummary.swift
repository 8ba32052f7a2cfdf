import Foundation
import ReceiptKit

/// The human-readable form of `receiptkit inspect`: fields, then purchases as a table.
enum ReceiptSummary {
    static func render(_ receipt: AppReceipt) -> String {
        var lines: [(String, String)] = []
        func add(_ label: String, _ value: String?) {
            if let value { lines.append((label, value)) }
        }
        add("Environment", receipt.environment?.rawValue)
        add("Bundle ID", receipt.bundleIdentifier)
        add("App version", receipt.appVersion)
        add("Original app version", receipt.originalAppVersion)
        add("App item ID", receipt.appItemIdentifier.map(String.init))
        add("Download ID", receipt.downloadIdentifier.map(String.init))
        add("Version external ID", receipt.versionExternalIdentifier.map(String.init))
        add("Age rating", receipt.ageRating)
        add("Created", receipt.creationDate.map(Self.date))
        add("Original purchase", receipt.originalPurchaseDate.map(Self.date))
        add("Expires (VPP)", receipt.expirationDate.map(Self.date))
        add("Opaque value", receipt.opaqueValue.map(Self.hex))
        add("SHA-1 hash", receipt.sha1Hash.map(Self.hex))
        add("Other attributes", receipt.otherAttributes.isEmpty ? nil : receipt.otherAttributes.map { String($0.type) }.joined(separator: ", "))
        add("In-app purchases", String(receipt.inAppPurchases.count))

        let width = lines.map(\.0.count).max() ?? 0
        var text = ""
        for (label, value) in lines {
            text += label + ":" + String(repeating: " ", count: width - label.count + 1) + value + "\n"
        }
        guard !receipt.inAppPurchases.isEmpty else { return text }

        let header = ["#", "Product", "Transaction", "Original transaction", "Qty", "Purchased", "Expires", "Cancelled"]
        var rows = [header]
        for (index, purchase) in receipt.inAppPurchases.enumerated() {
            rows.append([
                String(index + 1),
                purchase.productIdentifier ?? "-",
                purchase.transactionIdentifier ?? "-",
                purchase.originalTransactionIdentifier ?? "-",
                purchase.quantity.map(String.init) ?? "-",
                purchase.purchaseDate.map(Self.date) ?? "-",
                purchase.expiresDate.map(Self.date) ?? "-",
                purchase.cancellationDate.map(Self.date) ?? "-",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        text += "\n"
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            text += cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
        }
        return text
    }

    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
