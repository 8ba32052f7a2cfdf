public import AppStorePKI

/// The ledger's environments are the App Store's: `Production`, `Sandbox`, `Xcode` (StoreKit testing, only when a
/// service allows it).
@available(*, deprecated, renamed: "AppStoreEnvironment")
public typealias LedgerEnvironment = AppStoreEnvironment
