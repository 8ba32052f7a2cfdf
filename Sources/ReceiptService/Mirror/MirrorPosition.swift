/// A place in an order of the mirror's transactions: a date in milliseconds, then the transaction id. What a
/// `revision` token holds (``MirrorRevision``).
struct MirrorPosition: Sendable, Hashable, Comparable {
    let milliseconds: Int64
    let identifier: String

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.milliseconds != rhs.milliseconds ? lhs.milliseconds < rhs.milliseconds : lhs.identifier < rhs.identifier
    }

    /// Before every transaction.
    static let start = Self(milliseconds: Int64.min, identifier: "")
    /// After every transaction (ids are at most 64 digits; `~` sorts after every digit).
    static let end = Self(milliseconds: Int64.max, identifier: "~")
}
