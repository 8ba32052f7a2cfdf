/// One instance's claim to refresh a customer from the App Store Server API, made through a ledger several
/// instances share (``Ledger/claimAPIRefresh(_:)``): while it holds, the others do not ask Apple for the same
/// customer; when the refresh fails, the customer backs off for all of them.
public struct LedgerAPIClaim: Sendable, Hashable {
    /// What another instance holds, or why nobody may ask now.
    public enum Answer: Sendable, Hashable {
        /// The claim is this instance's: refresh, then end it (``Ledger/endAPIRefresh(_:failedUntilMilliseconds:)``).
        case granted
        /// Another instance refreshes the customer, until at most `untilMilliseconds` (its lease).
        case heldElsewhere(untilMilliseconds: Int64)
        /// The customer's last refresh failed: nobody asks before `untilMilliseconds`.
        case backingOff(untilMilliseconds: Int64)
        /// The app is paused (its key refused, or rate limited): nobody asks for it before `untilMilliseconds`.
        case paused(untilMilliseconds: Int64)
    }

    public let environment: AppStoreEnvironment
    public let bundleIdentifier: String
    /// The customer, named by the original transaction id the refresh leads with.
    public let originalTransactionIdentifier: String
    /// Who claims: one id per running bridge.
    public let holder: String
    /// The service's clock when claiming, in milliseconds since 1970.
    public let atMilliseconds: Int64
    /// How long the claim holds if its instance never ends it (it stopped half-way).
    public let leaseMilliseconds: Int64

    public init(
        environment: AppStoreEnvironment, bundleIdentifier: String, originalTransactionIdentifier: String, holder: String,
        atMilliseconds: Int64, leaseMilliseconds: Int64
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.holder = holder
        self.atMilliseconds = atMilliseconds
        self.leaseMilliseconds = leaseMilliseconds
    }
}
