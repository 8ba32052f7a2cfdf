public import AppStorePKI
public import struct Foundation.Date

/// What one backfill window of one app found in Get Notification History, and how it ended: each notification
/// found is `recorded` (it had never arrived), a `duplicate` (it had), or `refused` with the reason the service
/// refuses it for when posted (`notification_of_another_app` when it names another app or environment).
public struct NotificationBackfillReport: Sendable, Hashable {
    /// Why a window did not complete: its cursor stays where it was, and the next window runs it again.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// `key_refused` (Apple answered 401 or 403), `app_store_server_api` (another answer of Apple's, or none:
        /// ``message`` says which), `ledger_unavailable` (the
        /// cursor could not be read or written, or a notification not recorded for a reason a retry mends),
        /// `pagination` (pages that do not end), `lease_lost` (another instance took the app over).
        public let code: String
        public let message: String

        public init(code: String, message: String) {
            (self.code, self.message) = (code, message)
        }

        public var description: String { "\(self.code): \(self.message)" }
    }

    public let environment: AppStoreEnvironment
    public let bundleIdentifier: String
    /// The window asked for: notifications whose first send attempt is at or after ``start`` and before ``end``.
    public var start: Date
    public var end: Date
    /// Only notifications that never reached the notification URL (`onlyFailures`).
    public var onlyFailures: Bool
    /// Pages read.
    public var pages = 0
    /// Notifications found.
    public var found = 0
    /// Notifications the ledger did not hold: recorded now.
    public var recorded = 0
    /// Notifications the ledger held already.
    public var duplicates = 0
    /// Notifications refused, by reason code.
    public var refused: [String: Int] = [:]
    /// Why the window did not complete; `nil` when it did.
    public var failure: Failure?
    /// Whether another instance held the app's lease, so that this one ran nothing.
    public var heldElsewhere = false

    public init(
        environment: AppStoreEnvironment, bundleIdentifier: String, start: Date, end: Date, onlyFailures: Bool
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.start = start
        self.end = end
        self.onlyFailures = onlyFailures
    }

    /// Whether every page was read and every notification recorded or refused for good.
    public var completed: Bool { self.failure == nil && !self.heldElsewhere }

    /// The notifications refused, all reasons together.
    public var refusedCount: Int { self.refused.values.reduce(0, +) }
}
