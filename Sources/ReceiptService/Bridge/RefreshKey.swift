import AppStorePKI

/// What one App Store Server API refresh is about: an original transaction id of one app in one environment. Single
/// flight is kept per key.
struct RefreshKey: Sendable, Hashable {
    let environment: AppStoreEnvironment
    let bundleIdentifier: String
    let originalTransactionIdentifier: String
}
