/// One instance's lease on an app's notification backfill, taken through a ledger several instances share
/// (``Ledger/leaseNotificationBackfill(_:)``): while it holds, the others skip the app's windows. Taken again by
/// the same holder, it is renewed.
public struct LedgerBackfillLease: Sendable, Hashable {
    public let environment: AppStoreEnvironment
    public let bundleIdentifier: String
    /// Who holds it: one id per running backfill.
    public let holder: String
    /// The service's clock when taking it, in milliseconds since 1970.
    public let atMilliseconds: Int64
    /// How long it holds if its instance never ends it (it stopped half-way): then another takes it over, and the
    /// window it ran is run again.
    public let leaseMilliseconds: Int64

    public init(
        environment: AppStoreEnvironment, bundleIdentifier: String, holder: String, atMilliseconds: Int64,
        leaseMilliseconds: Int64
    ) {
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.holder = holder
        self.atMilliseconds = atMilliseconds
        self.leaseMilliseconds = leaseMilliseconds
    }
}
