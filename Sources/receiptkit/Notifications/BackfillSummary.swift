import AppStoreJWS
import AppStorePKI
import Foundation
import ReceiptKit
import ReceiptService
import _ReceiptKitShared

/// How `receiptkit notifications backfill` says what each window did.
enum BackfillSummary {
    /// `com.example.app Production 2026-11-24T10:00:00Z…2026-12-01T10:00:00Z: 42 found, 5 new, 37 duplicate, 0 refused (2 pages)`,
    /// then the refusals' reasons and the failure, if any.
    static func text(_ report: NotificationBackfillReport) -> String {
        var line = "\(report.bundleIdentifier) \(report.environment.rawValue) "
        guard !report.heldElsewhere else { return line + "skipped: another instance runs this app's backfill now" }
        line += "\(Self.time(report.start))…\(Self.time(report.end)): \(report.found) found, "
            + "\(report.recorded) new, \(report.duplicates) duplicate, \(report.refusedCount) refused (\(report.pages) page"
            + (report.pages == 1 ? ")" : "s)")
        if !report.refused.isEmpty {
            line += "; refused: " + report.refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        if let failure = report.failure { line += "; FAILED \(failure)" }
        return line
    }

    static func time(_ date: Date) -> String {
        RFC3339.string(date) ?? "\(date.epochMilliseconds) ms"
    }

    static func json(_ report: NotificationBackfillReport) -> JSONValue {
        var members: [String: JSONValue] = [
            "bundle_id": .string(report.bundleIdentifier), "environment": .string(report.environment.rawValue),
            "start": .string(Self.time(report.start)), "end": .string(Self.time(report.end)),
            "only_failures": .bool(report.onlyFailures), "pages": .number(JSONNumber(Int64(report.pages))),
            "found": .number(JSONNumber(Int64(report.found))), "new": .number(JSONNumber(Int64(report.recorded))),
            "duplicate": .number(JSONNumber(Int64(report.duplicates))),
            "refused": .object(report.refused.mapValues { .number(JSONNumber(Int64($0))) }),
            "completed": .bool(report.completed), "held_elsewhere": .bool(report.heldElsewhere),
        ]
        if let failure = report.failure {
            members["failure"] = .object(["code": .string(failure.code), "message": .string(failure.message)])
        }
        return .object(members)
    }

    /// 0 when every window completed; 75 when another instance held an app (nothing was asked for it: run again);
    /// 77 Apple refused the key; else 69 for a failure.
    static func status(_ reports: [NotificationBackfillReport]) -> ExitStatus {
        var status = ExitStatus.valid
        for report in reports {
            if report.heldElsewhere { status = max(status, .temporaryFailure) }
            guard let failure = report.failure else { continue }
            status = max(status, failure.code == "key_refused" ? .noPermission : .unavailable)
        }
        return status
    }
}
