@testable import ReceiptLedger
import Testing

@Suite("Known receipts")
struct KnownReceiptsTests {
    @Test("remembers up to its capacity, forgetting the oldest first")
    func bounded() {
        let known = KnownReceipts(capacity: 3)
        for hash in ["a", "b", "c"] { known.insert(hash) }
        #expect(["a", "b", "c"].allSatisfy(known.contains))
        known.insert("b")  // already there: no eviction
        known.insert("d")
        #expect(!known.contains("a"))
        #expect(["b", "c", "d"].allSatisfy(known.contains))
        known.insert("e")
        #expect(!known.contains("b") && known.contains("e"))
    }
}
