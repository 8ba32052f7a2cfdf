import Foundation
import ReceiptKit
import ReceiptKitTesting
import SharedFixtures
import Testing

/// The transaction identifier a server calls the App Store Server API with, from an app receipt or from a transaction
/// receipt of StoreKit's first API (Apple's `ReceiptUtility`).
@Suite("Transaction identifier from a receipt")
struct TransactionIdentifierTests {
    static let created = Date(timeIntervalSince1970: 1_700_000_000)

    static func minted(_ purchases: [InAppPurchase]) throws -> AppReceipt {
        let receipt = AppReceipt(
            environment: .production, bundleIdentifier: "com.example.app", appVersion: "1", opaqueValue: [1, 2, 3, 4],
            sha1Hash: Array(repeating: 7, count: 20), creationDate: Self.created, inAppPurchases: purchases)
        let bytes = try ReceiptMinter.mint(receipt, signer: try TestCertificateAuthority().receiptSigner)
        return try AppReceipt(base64Encoded: Array(Data(bytes).base64EncodedString().utf8))
    }

    @Test("an app receipt: the last purchase's transaction id, its original one without, nil without purchases")
    func appReceipt() throws {
        let first = try ReceiptMinter.purchase(spec: "com.example.monthly,1000000000000001", date: Self.created)
        let last = try ReceiptMinter.purchase(spec: "com.example.lifetime,1000000000000002", date: Self.created)
        #expect(try Self.minted([first, last]).serverAPITransactionIdentifier == "1000000000000002")

        var originalOnly = last
        originalOnly.transactionIdentifier = nil
        originalOnly.originalTransactionIdentifier = "1000000000000009"
        #expect(try Self.minted([first, originalOnly]).serverAPITransactionIdentifier == "1000000000000009")

        var neither = last
        neither.transactionIdentifier = nil
        neither.originalTransactionIdentifier = nil
        #expect(try Self.minted([first, neither]).serverAPITransactionIdentifier == "1000000000000001")
        #expect(try Self.minted([]).serverAPITransactionIdentifier == nil)
    }

    @Test("real receipts: one of the customer's transaction ids as the independent decoder read them, nil for none",
          .enabled(if: RealReceipts.available, Comment(rawValue: RealReceipts.skipMessage)))
    func realReceipts() throws {
        var named = 0
        for name in RealReceipts.receiptNames {
            let receipt = try AppReceipt(berEncoded: try RealReceipts.bytes(name))
            let decoded = RealReceipts.expected[name]?["decoded"] as? [String: Any]
            let purchases = decoded?["in_app"] as? [[String: Any]] ?? []
            let known = Set(purchases.compactMap { $0["transaction_id"] as? String })
            if let identifier = receipt.serverAPITransactionIdentifier {
                #expect(known.contains(identifier), "\(name): \(identifier)")
                #expect(identifier == receipt.inAppPurchases.last?.transactionIdentifier, "\(name)")
                named += 1
            } else {
                #expect(purchases.isEmpty, "\(name): \(purchases.count) purchases and no identifier")
            }
        }
        #expect(named > 0)
    }

    /// A transaction receipt as StoreKit's first API wrote one (Apple's documented layout; values of our own).
    static func transactionReceipt(purchaseInfo: String) -> [UInt8] {
        let text = "{\n\t\"signature\" = \"AmHhpwK5OEfFrLIE3ZTiS0VThKCc\";\n\t\"purchase-info\" = \"\(purchaseInfo)\";\n"
            + "\t\"environment\" = \"Sandbox\";\n\t\"pod\" = \"100\";\n\t\"signing-status\" = \"0\";\n}"
        return Array(Data(text.utf8).base64EncodedString(options: .lineLength64Characters).utf8)
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    @Test("a transaction receipt: the transaction-id of its purchase-info")
    func transactionReceipt() throws {
        let info = "{\n\t\"original-purchase-date-pst\" = \"2012-04-30 08:05:55 America/Los_Angeles\";\n"
            + "\t\"original-transaction-id\" = \"1000000046178817\";\n\t\"transaction-id\" = \"1000000046178818\";\n"
            + "\t\"quantity\" = \"1\";\n\t\"product-id\" = \"com.example.coins\";\n}"
        #expect(try TransactionReceipt.transactionIdentifier(base64Encoded: Self.transactionReceipt(purchaseInfo: Self.base64(info))) == "1000000046178818")
        // Spacing as any writer spaces it; the first entry of the name counts, a longer name that ends like it does not.
        let spaced = "{\"original-transaction-id\"=\"1\";\"transaction-id\"   =\n \"77\" ;\"transaction-id\" = \"78\";}"
        #expect(try TransactionReceipt.transactionIdentifier(base64Encoded: Self.transactionReceipt(purchaseInfo: Self.base64(spaced))) == "77")
        let none = "{\n\t\"product-id\" = \"com.example.coins\";\n}"
        #expect(try TransactionReceipt.transactionIdentifier(base64Encoded: Self.transactionReceipt(purchaseInfo: Self.base64(none))) == nil)
    }

    @Test("a transaction receipt that is not one: the exact error")
    func malformedTransactionReceipts() throws {
        func code(_ text: [UInt8]) -> ReceiptError.Code? {
            do {
                _ = try TransactionReceipt.transactionIdentifier(base64Encoded: text)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code(Array("not base64!".utf8)) == .invalidBase64)
        #expect(code(Self.transactionReceipt(purchaseInfo: "not base64!")) == .invalidBase64)
        #expect(code(Array(Self.base64("{\"signature\" = \"x\";}").utf8)) == .malformedPayload)
        #expect(code(Array(Self.base64("\"purchase-info\" = \"unterminated").utf8)) == .malformedPayload)
        #expect(code(Array(Self.base64("\"purchase-info\"").utf8)) == .malformedPayload)
        #expect(code([]) == .invalidBase64)  // nothing to decode, as for an app receipt
        let large = ReceiptDecodingConfiguration(maximumInputSize: 64)
        do {
            _ = try TransactionReceipt.transactionIdentifier(
                base64Encoded: Self.transactionReceipt(purchaseInfo: Self.base64(String(repeating: "x", count: 200))), configuration: large)
            Issue.record("a receipt past the size limit was read")
        } catch {
            #expect(error.code == .inputTooLarge)
        }
    }
}
