import Crypto
import Testing
@testable import ReceiptLedger

@Suite("ReceiptHashMemo")
struct ReceiptHashMemoTests {
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// `count` bytes starting with `first`; the same count gives the same last bytes (the same lookup key).
    static func bytes(_ count: Int, first: UInt8) -> [UInt8] {
        [first] + (1..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    }

    static let overhead = ReceiptHashMemo.entryOverhead

    @Test("a receipt seen before gets the same SHA-256 again, from the memo")
    func remembers() {
        let memo = ReceiptHashMemo()
        let receipt = Self.bytes(6_000, first: 1)
        #expect(memo.hash(of: receipt) == Self.sha256(receipt))
        #expect(memo.usage.hits == 0)
        #expect(memo.hash(of: Array(receipt)) == Self.sha256(receipt))
        #expect(memo.usage.hits == 1)
        #expect(memo.usage.entries == 1)
        #expect(memo.usage.bytes == 6_000 + Self.overhead)
    }

    @Test("receipts of the same length and last bytes differing elsewhere each get their own hash, never the other's; the queue stays small while they keep replacing each other")
    func sameLookupKey() {
        let memo = ReceiptHashMemo()
        let a = Self.bytes(6_000, first: 1)
        let b = Self.bytes(6_000, first: 2)
        let (hashA, hashB) = (Self.sha256(a), Self.sha256(b))
        for _ in 0..<2_000 {
            #expect(memo.hash(of: a) == hashA)
            #expect(memo.hash(of: b) == hashB)
        }
        #expect(memo.usage.hits == 0)  // each took the key from the other
        #expect(memo.usage.entries == 1)
        #expect(memo.usage.bytes == 6_000 + Self.overhead)
        #expect(memo.queueLength <= 2 * 1 + 64 + 1)
        #expect(memo.hash(of: b) == Self.sha256(b))
        #expect(memo.usage.hits == 1)
        #expect(memo.hash(of: []) == Self.sha256([]))
    }

    @Test("bounded by the memory its entries take, oldest first; 0 keeps nothing")
    func bounded() {
        let limit = 10_000
        let memo = ReceiptHashMemo(maximumBytes: limit)
        let receipts = (0..<50).map { index in Self.bytes(3_000 + index, first: UInt8(index)) }
        for receipt in receipts {
            #expect(memo.hash(of: receipt) == Self.sha256(receipt))
            #expect(memo.usage.bytes <= limit)
        }
        // The newest that fit: 3,047 + 3,048 + 3,049 bytes and three overheads.
        #expect(memo.usage.entries == 3)
        #expect(memo.usage.bytes == 3_047 + 3_048 + 3_049 + 3 * Self.overhead)
        for receipt in receipts[47...49] { #expect(memo.hash(of: receipt) == Self.sha256(receipt)) }
        #expect(memo.usage.hits == 3)
        #expect(memo.hash(of: receipts[46]) == Self.sha256(receipts[46]))
        #expect(memo.usage.hits == 3)
        let none = ReceiptHashMemo(maximumBytes: 0)
        #expect(none.hash(of: receipts[1]) == Self.sha256(receipts[1]))
        #expect(none.hash(of: []) == Self.sha256([]))
        #expect(none.usage.entries == 0)
    }

    @Test("an entry that replaced another under the same lookup key is as old as its own arrival")
    func replacedEntryAge() {
        let a = Self.bytes(3_000, first: 1)
        let b = Self.bytes(3_000, first: 2)  // a's lookup key
        let c = Self.bytes(3_001, first: 3)
        let d = Self.bytes(3_002, first: 4)
        let memo = ReceiptHashMemo(maximumBytes: 2 * (3_002 + Self.overhead))
        for receipt in [a, c, b, d] { _ = memo.hash(of: receipt) }
        // b came after c: c is the oldest and goes for d.
        #expect(memo.usage.entries == 2)
        #expect(memo.usage.bytes == 3_000 + 3_002 + 2 * Self.overhead)
        #expect(memo.hash(of: b) == Self.sha256(b))
        #expect(memo.hash(of: d) == Self.sha256(d))
        #expect(memo.usage.hits == 2)
    }
}
