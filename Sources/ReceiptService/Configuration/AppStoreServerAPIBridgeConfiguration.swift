public import AppStoreServerAPI

/// How `/verifyReceipt` refreshes the ledger from the App Store Server API before it answers: which apps, how often,
/// how long a request waits for Apple, and how much refreshing runs at once. With no ``apps`` (the default) the
/// service never calls the API.
///
/// A request for a configured app refreshes each of the receipt's original transaction ids whose last refresh is
/// older than ``refreshInterval`` (or that was never refreshed): its transaction history and, for an
/// auto-renewable subscription, its subscription statuses, verified and written to the ledger. It waits for that
/// at most ``refreshWait`` (and never more than half the request timeout; the deadline clock ticks every 50 ms,
/// which the wait may overrun by); past it, the answer comes from the ledger and the refresh finishes in the
/// background.
///
/// ```swift
/// var configuration = VerifyReceiptConfiguration()
/// configuration.appStoreServerAPI.apps = [app]
/// configuration.appStoreServerAPI.refreshInterval = .seconds(15 * 60)
/// ```
public struct AppStoreServerAPIBridgeConfiguration: Sendable {
    /// The apps refreshed from the API and served by its mirror (or, given a public key only, served only); one entry
    /// per bundle id (the service refuses a bundle id given twice).
    public var apps: [AppStoreServerAPIAppConfiguration] = []
    /// How old the ledger's data for an original transaction id may be before a request refreshes it (default 1 hour).
    public var refreshInterval: Duration = .seconds(3600)
    /// How long a request waits for a refresh before it answers from the ledger (default 3 seconds; at most half the
    /// request timeout is used).
    public var refreshWait: Duration = .seconds(3)
    /// After a refresh that failed, how long requests for the same original transaction id answer from the ledger
    /// without asking Apple again (default 60 seconds).
    public var failureBackoff: Duration = .seconds(60)
    /// How long an app's key is left alone after Apple refused it (401 or 403): no refresh for that app and
    /// environment asks Apple before it has passed. A 429 pauses the app likewise, for its `Retry-After` (at least
    /// ``failureBackoff``).
    public var refusedKeyPause: Duration = .seconds(300)
    /// The most refreshes running at once in each environment (default 256; production and sandbox each have their
    /// own), a receipt's counted once however many original transaction ids it covers, and each of the apps
    /// refreshed there held to an equal share (all of it for one app). Past it a due refresh is skipped (`busy`) and
    /// the answer comes from the ledger. Ids backing off after a failure do not count: they are that customer's
    /// (at most 100,000 are remembered).
    public var maximumRefreshes = 256
    /// How one API request is retried (429, 5xx, connection failures); `RetryPolicy.default` by default. Retries
    /// that outlast ``refreshWait`` go on in the background.
    public var retryPolicy: RetryPolicy = .default
    /// How long one API request may take (default 10 seconds).
    public var requestTimeout: Duration = .seconds(10)

    /// Creates the default: no apps.
    public init() {}
}
