import AppStoreJWS
import Foundation
import _ReceiptKitShared

/// The text forms of `receiptkit subscription`'s answers: a line per subscription, transaction or item, dates in
/// RFC 3339 (UTC).
enum SubscriptionText {
    static let statusNames: [Int64: String] = [1: "active", 2: "expired", 3: "billing retry", 4: "grace period", 5: "revoked"]

    static func statuses(_ answer: [String: JSONValue]) -> String {
        var lines: [String] = []
        for group in answer["data"]?.arrayValue ?? [] {
            let id = group.objectValue?["subscriptionGroupIdentifier"]?.stringValue ?? "?"
            for item in group.objectValue?["lastTransactions"]?.arrayValue ?? [] {
                let members = item.objectValue ?? [:]
                let status = members["status"]?.numberValue?.int64 ?? 0
                let payload = Self.payload(members["signedTransactionInfo"]?.stringValue)
                lines.append(
                    "group \(id): \(members["originalTransactionId"]?.stringValue ?? "?") "
                        + "\(payload["productId"]?.stringValue ?? "?") — \(status) \(Self.statusNames[status] ?? "unknown"), "
                        + "latest \(payload["transactionId"]?.stringValue ?? "?"), expires \(Self.date(payload["expiresDate"]))")
            }
        }
        return lines.isEmpty ? "no auto-renewable subscription" : lines.joined(separator: "\n")
    }

    static func history(_ answer: [String: JSONValue]) -> String {
        let lines = (answer["signedTransactions"]?.arrayValue ?? []).map { item -> String in
            let payload = Self.payload(item.stringValue)
            var line =
                "\(payload["transactionId"]?.stringValue ?? "?") (original \(payload["originalTransactionId"]?.stringValue ?? "?")) "
                + "\(payload["productId"]?.stringValue ?? "?"), bought \(Self.date(payload["purchaseDate"]))"
            if payload["expiresDate"] != nil { line += ", expires \(Self.date(payload["expiresDate"]))" }
            if payload["revocationDate"] != nil { line += ", revoked \(Self.date(payload["revocationDate"]))" }
            return line
        }
        return lines.isEmpty ? "no transaction the ledger holds signed" : lines.joined(separator: "\n")
    }

    static func entitlements(_ answer: [String: JSONValue]) -> String {
        let active = (answer["active_entitlements"]?.arrayValue ?? []).compactMap(\.stringValue)
        var lines = ["active entitlements: " + (active.isEmpty ? "none" : active.joined(separator: ", "))]
        for item in answer["items"]?.arrayValue ?? [] {
            let members = item.objectValue ?? [:]
            var line =
                "\(members["product_id"]?.stringValue ?? "?") (original \(members["original_transaction_id"]?.stringValue ?? "?")): "
                + (members["state"]?.stringValue ?? "?")
            if members["expires_date_ms"]?.numberValue != nil { line += ", expires \(Self.date(members["expires_date_ms"]))" }
            if members["grace_period_expires_date_ms"]?.numberValue != nil {
                line += ", grace until \(Self.date(members["grace_period_expires_date_ms"]))"
            }
            if case .bool(let renews)? = members["will_renew"] {
                // The product it renews into, when another (a downgrade or crossgrade waiting for the renewal).
                let next = members["renews_to_product_id"]?.stringValue.flatMap { $0 == members["product_id"]?.stringValue ? nil : $0 }
                line += renews ? ", renews" + (next.map { " into \($0)" } ?? "") : ", will not renew"
            }
            let names = (members["entitlements"]?.arrayValue ?? []).compactMap(\.stringValue)
            line += " [" + names.joined(separator: ", ") + "]"
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The payload of a JWS the ledger kept.
    static func payload(_ jws: String?) -> [String: JSONValue] {
        guard let jws, let compact = try? CompactJWS(Array(jws.utf8)) else { return [:] }
        return compact.payload
    }

    /// A date given in milliseconds (a JSON number or digits), in RFC 3339.
    static func date(_ value: JSONValue?) -> String {
        let milliseconds = value?.numberValue?.int64 ?? value?.stringValue.flatMap { Int64($0) }
        guard let milliseconds else { return "?" }
        return RFC3339Format.string(Date(timeIntervalSince1970: Double(milliseconds) / 1000)) ?? "?"
    }
}
