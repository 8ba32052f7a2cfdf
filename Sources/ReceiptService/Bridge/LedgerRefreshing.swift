import AppStorePKI

/// What ``ReceiptVerifier`` needs of the App Store Server API refresh: whether an app's receipts are refreshed,
/// and a refresh of a receipt's due ids within a wait. ``AppStoreServerAPIBridge`` is the service's; tests give
/// the verifier a scripted one.
protocol LedgerRefreshing: Sendable {
    /// Whether receipts of `bundleIdentifier` in `environment` are refreshed.
    func refreshes(bundleIdentifier: String, environment: AppStoreEnvironment) -> Bool

    /// Refreshes `keys` (each due, all of one receipt) and waits at most `wait`.
    /// - Returns: Whether the ledger was written in time (the caller reads it again).
    func refresh(_ keys: [RefreshKey], wait: Duration) async -> Bool

    /// The apps whose last call to Apple did not succeed, and why (for `/health`).
    var troubledApps: [APIAppTrouble] { get }
}
