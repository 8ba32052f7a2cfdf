/// Transactions and renewal information learnt from App Store signed data — a server notification or the App Store
/// Server API — applied to the ledger in one database transaction by ``Ledger/apply(_:)`` (and, with its
/// replay protection, by ``Ledger/recordNotification(_:)``).
///
/// Rows compete with what is stored: a transaction is replaced only by a version signed later (its
/// ``LedgerTransaction/receiptCreationMilliseconds``), renewal information only by one updated as late or later.
/// Nothing here touches which receipts carried the transactions, so `latest_receipt` stays a receipt.
/// Build it only from signed data that verified: the ledger believes what it is given.
public struct LedgerUpdate: Sendable, Hashable {
    /// What taught it (``LedgerSource/notification``, ``LedgerSource/api``); stored with every row.
    public var source: LedgerSource
    /// Transaction rows (their ``LedgerTransaction/source`` is set to ``source`` when applied).
    public var transactions: [LedgerTransaction]
    /// Renewal information (their ``LedgerRenewalInfo/source`` is set to ``source`` when applied).
    public var renewalInfo: [LedgerRenewalInfo]
    /// For a refresh from the App Store Server API: the original transaction ids it fetched and when. `nil` for
    /// anything else.
    public var refresh: LedgerRefresh?

    /// Creates an update.
    public init(
        source: LedgerSource,
        transactions: [LedgerTransaction] = [],
        renewalInfo: [LedgerRenewalInfo] = [],
        refresh: LedgerRefresh? = nil
    ) {
        self.source = source
        self.transactions = transactions
        self.renewalInfo = renewalInfo
        self.refresh = refresh
    }

    /// Every original transaction id it writes about: its transactions', its renewal information's and its
    /// refresh's.
    public var originalTransactionIdentifiers: Set<String> {
        var ids = Set(self.transactions.map(\.originalTransactionIdentifier))
        ids.formUnion(self.renewalInfo.map(\.originalTransactionIdentifier))
        ids.formUnion(self.refresh?.query.originalTransactionIdentifiers ?? [])
        return ids
    }

    /// The ids whose snapshots it may change: ``originalTransactionIdentifiers`` and its transactions' own ids (a
    /// row replaced under another original transaction id leaves the snapshots of the one it had).
    var writtenIdentifiers: Set<String> {
        self.originalTransactionIdentifiers.union(self.transactions.map(\.transactionIdentifier))
    }
}
