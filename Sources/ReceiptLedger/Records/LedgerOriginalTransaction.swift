public import AppStorePKI

/// What the ledger keeps per original transaction id, apart from its transactions: the newest receipt that carried
/// any of them (verifyReceipt's `latest_receipt`, which signed data never replaces) and when the App Store Server
/// API last refreshed them.
public struct LedgerOriginalTransaction: Sendable, Hashable {
    /// The environment.
    public var environment: AppStoreEnvironment
    /// The app's bundle identifier.
    public var bundleIdentifier: String
    /// The original transaction id (the key, with environment and app).
    public var originalTransactionIdentifier: String
    /// The ``LedgerReceipt/hash`` of the newest receipt (by creation date, then hash) that carried one of its
    /// transactions; `nil` when only signed data taught the ledger about it.
    public var latestReceiptHash: String?
    /// That receipt's creation date in milliseconds.
    public var latestReceiptCreationMilliseconds: Int64?
    /// When its transactions and renewal information were last fetched from the App Store Server API, in
    /// milliseconds (``LedgerUpdate/refresh``); `nil` when never.
    public var apiRefreshedMilliseconds: Int64?

}
