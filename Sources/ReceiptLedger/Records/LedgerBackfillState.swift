/// Where the notification backfill of one app in one environment stands (``Ledger/notificationBackfillState(environment:bundleIdentifier:)``):
/// how far its windows of Get Notification History have covered, and the newest notification the ledger holds for
/// the app, whichever way it came.
public struct LedgerBackfillState: Sendable, Hashable {
    /// The end of the latest window that completed, in milliseconds since 1970; `nil` before the first.
    public var coveredUntilMilliseconds: Int64?
    /// The windows completed so far.
    public var windows: Int64
    /// The `signedDate` of the newest notification recorded for the app in the environment, in milliseconds since
    /// 1970; `nil` when none is.
    public var newestNotificationMilliseconds: Int64?

    public init(coveredUntilMilliseconds: Int64? = nil, windows: Int64 = 0, newestNotificationMilliseconds: Int64? = nil) {
        self.coveredUntilMilliseconds = coveredUntilMilliseconds
        self.windows = windows
        self.newestNotificationMilliseconds = newestNotificationMilliseconds
    }
}
