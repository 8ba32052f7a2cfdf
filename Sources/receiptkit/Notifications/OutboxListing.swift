import AppStoreJWS
import Foundation
import ReceiptKit
import ReceiptLedger
import _ReceiptKitShared

/// How `receiptkit notifications outbox list` shows an entry.
enum OutboxListing {
    /// `entitlements 5f…e1 pending DID_RENEW original 2000000123 attempts 3, next 2026-12-01T10:00:00Z, deadline …: HTTP 503`.
    static func text(_ entry: LedgerOutboxEntry) -> String {
        var line = "\(entry.target) \(entry.notificationUUID) \(entry.state.rawValue) \(entry.notificationType)"
        if let subtype = entry.subtype { line += "/\(subtype)" }
        line += " \(entry.environment.rawValue) \(entry.bundleIdentifier)"
        if let original = entry.originalTransactionIdentifier { line += " original \(original)" }
        line += " signed \(Self.time(entry.signedMilliseconds)), attempts \(entry.attempts)"
        if entry.state == .pending { line += ", next \(Self.time(entry.nextAttemptMilliseconds))" }
        line += ", deadline \(Self.time(entry.deadlineMilliseconds))"
        if let error = entry.lastError { line += ": \(error)" }
        return line
    }

    static func json(_ entry: LedgerOutboxEntry) -> JSONValue {
        var members: [String: JSONValue] = [
            "target": .string(entry.target), "notification_uuid": .string(entry.notificationUUID),
            "state": .string(entry.state.rawValue), "notification_type": .string(entry.notificationType),
            "environment": .string(entry.environment.rawValue), "bundle_id": .string(entry.bundleIdentifier),
            "signed_date": .string(Self.time(entry.signedMilliseconds)),
            "created": .string(Self.time(entry.createdMilliseconds)),
            "attempts": .number(JSONNumber(entry.attempts)),
            "next_attempt": .string(Self.time(entry.nextAttemptMilliseconds)),
            "deadline": .string(Self.time(entry.deadlineMilliseconds)),
        ]
        if let subtype = entry.subtype { members["subtype"] = .string(subtype) }
        if let original = entry.originalTransactionIdentifier { members["original_transaction_id"] = .string(original) }
        if let error = entry.lastError { members["last_error"] = .string(error) }
        return .object(members)
    }

    static func time(_ milliseconds: Int64) -> String {
        RFC3339.string(Date(timeIntervalSince1970: Double(milliseconds) / 1000)) ?? "\(milliseconds) ms"
    }
}
