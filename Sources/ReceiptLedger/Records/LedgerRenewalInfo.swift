public import AppStorePKI
/// What is known about a subscription's next renewal (verifyReceipt's `pending_renewal_info` element), recorded by
/// whatever learns it — App Store Server Notifications or signed renewal information.
public struct LedgerRenewalInfo: Sendable, Hashable {
    /// The environment.
    public var environment: AppStoreEnvironment
    /// The app's bundle identifier.
    public var bundleIdentifier: String
    /// The subscription's original transaction id (the key: one renewal state per subscription).
    public var originalTransactionIdentifier: String
    /// The product the subscription renews into.
    public var productIdentifier: String
    /// When this information was signed or observed, in milliseconds; an older update never replaces a newer one.
    public var updatedMilliseconds: Int64
    /// The `pending_renewal_info` JSON object (UTF-8), as it will be served.
    public var json: [UInt8]
    /// What taught the ledger this version.
    public var source: LedgerSource
    /// The compact JWS this version was read from, exactly as Apple signed it (`signedRenewalInfo`); `nil` for
    /// versions learnt before the ledger kept signed values (schema version 7).
    public var signedJWS: String?

    /// Creates renewal information.
    public init(
        environment: AppStoreEnvironment,
        bundleIdentifier: String,
        originalTransactionIdentifier: String,
        productIdentifier: String,
        updatedMilliseconds: Int64,
        json: [UInt8],
        source: LedgerSource = .notification,
        signedJWS: String? = nil
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.productIdentifier = productIdentifier
        self.updatedMilliseconds = updatedMilliseconds
        self.json = json
        self.source = source
        self.signedJWS = signedJWS
    }
}
