import AppStoreServerAPISimulator
import Foundation
import _ReceiptKitShared

/// How `simulate` and `simulate check` write a timeline and its sends for a person.
enum ScenarioText {
    /// `2026-11-03T10:00:00Z DID_RENEW alice 2000000000000001`
    static func line(_ notification: ScenarioNotification) -> String {
        let type = notification.subtype.map { "\(notification.type)/\($0)" } ?? notification.type
        return [
            RFC3339Format.string(notification.signedDate) ?? "?", type, notification.customer,
            notification.originalTransactionID ?? "-",
        ].joined(separator: " ")
    }

    /// `[3/12] DID_RENEW alice: SUCCESS (200)`, `[4/12] EXPIRED/VOLUNTARY bob: dropped (history: …)`
    static func line(_ send: ScenarioSend) -> String {
        let notification = send.notification
        let type = notification.subtype.map { "\(notification.type)/\($0)" } ?? notification.type
        let what: String
        switch send.fate {
        case .dropped: what = "dropped (history: \(send.result))"
        case .sent, .duplicate:
            what = send.result + (send.status.map { " (\($0))" } ?? "") + (send.fate == .duplicate ? ", a duplicate" : "")
        }
        return "[\(send.position)/\(send.total)] \(type) \(notification.customer): \(what)"
    }

    /// `12 events, 15 notifications from 2026-10-01T… to 2026-12-01T… (61 days); 3 products at the end:`
    static func summary(_ timeline: ScenarioTimeline) -> String {
        let first = timeline.steps.first?.date ?? timeline.start
        return "\(timeline.steps.count) events, \(timeline.notifications.count) notifications from "
            + "\(RFC3339Format.string(first) ?? "?") to \(RFC3339Format.string(timeline.end) ?? "?") "
            + "(\(self.span(timeline.duration))); \(timeline.outcomes.count) products at the end:"
    }

    /// `3 days 4 hours`, `25 minutes`, `12 seconds`
    static func span(_ seconds: Double) -> String {
        let total = Int(max(0, min(seconds, 1e12)).rounded())
        let units = [("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1)]
        var parts: [String] = []
        var rest = total
        for (name, size) in units where rest >= size && parts.count < 2 {
            let count = rest / size
            rest -= count * size
            parts.append("\(count) \(name)\(count == 1 ? "" : "s")")
        }
        return parts.isEmpty ? "0 seconds" : parts.joined(separator: " ")
    }
}
