/// How one refresh of a customer ended, for its waiters and the failure backoff.
enum RefreshEnd: Sendable, Hashable {
    /// Nothing reached the ledger (no client, Apple's error, the ledger's): waiters read nothing new, and the key
    /// backs off.
    case nothingWritten
    /// Something was written but not the refresh time (the statuses call failed): waiters read it again, and the
    /// ids stay due and back off.
    case incomplete
    /// Written with its refresh time: waiters read it again.
    case complete

    /// A refresh that wrote `written` and, when `complete`, its refresh time.
    init(written: Bool, complete: Bool) {
        self = !written ? .nothingWritten : complete ? .complete : .incomplete
    }

    /// Whether the ledger was written (waiters read it again).
    var wroteLedger: Bool { self != .nothingWritten }
}
