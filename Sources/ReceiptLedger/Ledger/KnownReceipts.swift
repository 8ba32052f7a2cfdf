import NIOConcurrencyHelpers

/// Hashes of receipts this process has seen committed to the ledger, so that a receipt posted again (the common
/// case: apps send the same receipt until it changes) costs no write transaction. Rows are never deleted, so a
/// hash once committed stays true for every instance sharing the database. Bounded: the oldest entries go first.
final class KnownReceipts: Sendable {
    private struct State {
        var members = Set<String>()
        var order: [String] = []
        var next = 0
    }

    private let state = NIOLockedValueBox(State())
    let capacity: Int

    init(capacity: Int = 65_536) {
        self.capacity = max(1, capacity)
    }

    func contains(_ hash: String) -> Bool {
        self.state.withLockedValue { $0.members.contains(hash) }
    }

    func insert(_ hash: String) {
        self.state.withLockedValue { state in
            guard state.members.insert(hash).inserted else { return }
            if state.order.count < self.capacity {
                state.order.append(hash)
            } else {
                state.members.remove(state.order[state.next])
                state.order[state.next] = hash
                state.next = (state.next + 1) % self.capacity
            }
        }
    }
}
