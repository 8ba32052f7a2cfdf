public import AppStorePKI

/// What the ledger holds of one customer of an app, for serving Apple's signed values
/// (``Ledger/customer(environment:bundleIdentifier:transactionIdentifier:)``): every transaction of the customer's
/// original transactions with the JWS of its current version, and the renewal information Apple signed for each
/// subscription.
///
/// A *customer* is what one receipt tells: a receipt holds every purchase of one customer in the app, so the
/// original transactions the newest receipt of one of them carries are that customer's. An original transaction
/// known only from signed data (a notification, the App Store Server API) is a customer of its own until a receipt
/// carrying it is recorded.
public struct LedgerCustomer: Sendable, Hashable {
    /// The app's environment.
    public var environment: AppStoreEnvironment
    /// The app's bundle id.
    public var bundleIdentifier: String
    /// The customer's original transaction ids, in ascending order.
    public var originalTransactionIdentifiers: [String]
    /// Every stored transaction of those original transactions.
    public var transactions: [LedgerCustomerTransaction]
    /// The JWS of each subscription's current renewal information, by original transaction id: only renewal
    /// information the ledger learnt from signed data (a receipt's pending renewal info has no signature).
    public var signedRenewalInfo: [String: String]

    /// Describes a customer.
    public init(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifiers: [String],
        transactions: [LedgerCustomerTransaction], signedRenewalInfo: [String: String]
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.originalTransactionIdentifiers = originalTransactionIdentifiers
        self.transactions = transactions
        self.signedRenewalInfo = signedRenewalInfo
    }
}
