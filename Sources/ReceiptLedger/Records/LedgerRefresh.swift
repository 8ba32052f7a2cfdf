public import struct Foundation.Date
import ReceiptKit

/// A refresh from the App Store Server API: which original transaction ids it fetched (with their app and
/// environment) and when, recorded by ``Ledger/apply(_:)`` as their
/// ``LedgerOriginalTransaction/apiRefreshedMilliseconds`` — a later refresh replaces an earlier one, never the
/// reverse — so that a caller can tell from a snapshot which ids are due for another.
public struct LedgerRefresh: Sendable, Hashable {
    /// The app, the environment and the original transaction ids fetched.
    public var query: LedgerQuery
    /// When they were fetched, in milliseconds (from the caller's clock).
    public var milliseconds: Int64

    /// A refresh of `query`'s original transaction ids at `date` (the caller's clock, never the system's).
    public init(_ query: LedgerQuery, at date: Date) {
        self.query = query
        self.milliseconds = date.epochMilliseconds
    }
}
