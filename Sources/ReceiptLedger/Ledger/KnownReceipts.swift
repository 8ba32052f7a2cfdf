import NIOConcurrencyHelpers
import _ReceiptKitShared

/// Hashes of receipts this process has seen committed to the ledger, so that a receipt posted again (the common
/// case: apps send the same receipt until it changes) costs no write transaction. Rows are never deleted, so a
/// hash once committed stays true for every instance sharing the database. Bounded (the package's
/// `CostBoundedTable`, each hash costing 1): the oldest entries go first.
final class KnownReceipts: Sendable {
    private let hashes: NIOLockedValueBox<CostBoundedTable<String, Bool>>
    let capacity: Int

    init(capacity: Int = 65_536) {
        self.capacity = max(1, capacity)
        self.hashes = NIOLockedValueBox(CostBoundedTable(limit: self.capacity))
    }

    func contains(_ hash: String) -> Bool {
        self.hashes.withLockedValue { $0[hash] != nil }
    }

    func insert(_ hash: String) {
        self.hashes.withLockedValue { table in
            guard table[hash] == nil else { return }
            table.insert(true, cost: 1, for: hash)
        }
    }
}
