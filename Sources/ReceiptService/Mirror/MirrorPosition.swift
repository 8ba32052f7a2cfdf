/// A place in the order of the mirror's transactions: the ledger's change number
/// (``LedgerCustomerTransaction/changeNumber``), then the transaction id. What a `revision` token holds
/// (``MirrorRevision``).
struct MirrorPosition: Sendable, Hashable, Comparable {
    let number: Int64
    let identifier: String

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.number != rhs.number ? lhs.number < rhs.number : lhs.identifier < rhs.identifier
    }

    /// Before every transaction.
    static let start = Self(number: Int64.min, identifier: "")
    /// After every transaction (ids are at most 64 digits; `~` sorts after every digit).
    static let end = Self(number: Int64.max, identifier: "~")
}
