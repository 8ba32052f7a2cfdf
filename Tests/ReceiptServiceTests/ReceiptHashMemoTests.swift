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

    static func bytes(_ count: Int, first: UInt8) -> [UInt8] {
        [first] + (1..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    }

    @Test("a receipt seen before gets the same SHA-256 again, from the memo")
    func remembers() {
        let memo = ReceiptHashMemo()
        let receipt = Self.bytes(6_000, first: 1)
        #expect(memo.hash(of: receipt) == Self.sha256(receipt))
        #expect(memo.usage.entries == 1)
        #expect(memo.hash(of: Array(receipt)) == Self.sha256(receipt))
        #expect(memo.usage.entries == 1)
    }

    @Test("receipts of the same length and last bytes differing elsewhere each get their own hash")
    func sameLookupKey() {
        let memo = ReceiptHashMemo()
        let a = Self.bytes(6_000, first: 1)
        let b = Self.bytes(6_000, first: 2)
        for _ in 0..<3 {
            #expect(memo.hash(of: a) == Self.sha256(a))
            #expect(memo.hash(of: b) == Self.sha256(b))
        }
        #expect(memo.hash(of: []) == Self.sha256([]))
        #expect(memo.usage.entries <= 2)
    }

    @Test("bounded by the bytes it holds, oldest first; 0 holds none")
    func bounded() {
        let memo = ReceiptHashMemo(maximumBytes: 10_000)
        let receipts = (0..<50).map { index in Self.bytes(3_000 + index, first: UInt8(index)) }
        for receipt in receipts {
            #expect(memo.hash(of: receipt) == Self.sha256(receipt))
            #expect(memo.usage.bytes <= 10_000)
        }
        #expect(memo.usage.entries == 3)
        #expect(memo.hash(of: receipts[0]) == Self.sha256(receipts[0]))
        let none = ReceiptHashMemo(maximumBytes: 0)
        #expect(none.hash(of: receipts[1]) == Self.sha256(receipts[1]))
        #expect(none.usage.entries == 0)
    }
}
