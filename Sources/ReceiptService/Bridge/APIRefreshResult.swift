/// What became of one original transaction id a `/verifyReceipt` request looked at for an App Store Server API
/// refresh: the `result` label of `receiptkit_app_store_api_refreshes_total` is its raw value.
enum APIRefreshResult: String, CaseIterable, Sendable {
    /// Refreshed within the refresh interval: nothing asked.
    case fresh
    /// A refresh ended complete: its time recorded.
    case fetched
    /// A refresh ended incomplete: the id backs off.
    case failed
    /// The request stopped waiting; the refresh goes on without it.
    case background
    /// A refresh runs in the background already: answered from the ledger at once.
    case inBackground = "in_background"
    /// The id's last refresh failed less than the failure backoff ago.
    case backoff
    /// As many refreshes run, or back off, as the bridge allows.
    case busy
    /// The app's key was refused or rate limited: it asks Apple nothing for a while.
    case paused
    /// The bridge is not running (its service stopped, or not started).
    case notRunning = "not_running"
    /// Another instance sharing the PostgreSQL ledger refreshes the customer: answered from the ledger.
    case elsewhere
}
