/// One forwarder's request for outbox entries to send (``Ledger/claimOutbox(_:)``): the due pending entries of its
/// targets that are first in their original transaction's order, each leased to `holder` so that no other forwarder
/// — of this instance or another sharing the ledger — sends it at the same time.
public struct LedgerOutboxClaim: Sendable, Hashable {
    /// The targets this forwarder sends to (an instance never claims a target it does not know).
    public var targets: [String]
    /// Who claims: one id per running forwarder.
    public var holder: String
    /// The service's clock, in milliseconds since 1970.
    public var atMilliseconds: Int64
    /// How long a claimed entry stays leased if its forwarder never settles it (it stopped mid-send): then it is
    /// due again, and sent again — at least once.
    public var leaseMilliseconds: Int64
    /// The most entries to claim.
    public var limit: Int

    public init(targets: [String], holder: String, atMilliseconds: Int64, leaseMilliseconds: Int64, limit: Int) {
        self.targets = targets
        self.holder = holder
        self.atMilliseconds = atMilliseconds
        self.leaseMilliseconds = leaseMilliseconds
        self.limit = limit
    }
}
