import AppStoreServerAPI
import Crypto
import ReceiptLedger

/// The POST that sends one outbox entry to its target: the body as it reached the service, the notification's
/// identity in headers, and, with the target's secret, `X-ReceiptKit-Signature: sha256=<hex HMAC-SHA256 of the body>`
/// (compare it in constant time, over the raw body, before parsing).
enum ForwardedRequest {
    static func make(_ entry: LedgerOutboxEntry, to target: NotificationTarget) -> HTTPTransportRequest {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("User-Agent", "receiptkit"),
            ("X-ReceiptKit-Notification-UUID", entry.notificationUUID),
            ("X-ReceiptKit-Notification-Type", entry.notificationType),
        ]
        if let subtype = entry.subtype { headers.append(("X-ReceiptKit-Notification-Subtype", subtype)) }
        if let original = entry.originalTransactionIdentifier {
            headers.append(("X-ReceiptKit-Original-Transaction-Id", original))
        }
        headers.append(("X-ReceiptKit-Environment", entry.environment.rawValue))
        headers.append(("X-ReceiptKit-Bundle-Id", entry.bundleIdentifier))
        headers.append(("X-ReceiptKit-Attempt", String(entry.attempts)))
        if let secret = target.hmacSecret {
            headers.append(("X-ReceiptKit-Signature", "sha256=" + Self.signature(entry.body, secret: secret)))
        }
        return HTTPTransportRequest(
            method: "POST", url: target.url, headers: headers.map { ($0.name, Self.fieldValue($0.value)) }, body: entry.body)
    }

    /// A header value of printable ASCII, at most 256 characters: what the notification says is signed, but an
    /// unexpected character (a line break) must not end the header or fail every attempt.
    static func fieldValue(_ value: String) -> String {
        String(value.unicodeScalars.prefix(256).map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }

    /// The lower-case hex HMAC-SHA256 of `body` under `secret` (its UTF-8 bytes).
    static func signature(_ body: [UInt8], secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(secret.utf8)))
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in code {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
