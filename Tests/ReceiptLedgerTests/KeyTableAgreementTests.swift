import AppStoreJWS
import ReceiptKit
@testable import ReceiptLedger
import Testing

/// `latest_receipt_info` is written from two tables: a receipt's purchase table (ReceiptKit) and the ledger's table
/// from signed data. A client reads one key the same whichever wrote it, so a key both tables write is written in
/// one shape, and a key only one writes is listed as that table's own — a new field added to one table alone fails
/// here until the other is decided.
@Suite("verifyReceipt key tables agree")
struct KeyTableAgreementTests {
    /// Why two tables disagree, one line a key; empty when they agree.
    static func disagreements(
        receipt: [String: VerifyReceiptValueShape],
        signedData: [String: VerifyReceiptValueShape],
        receiptOnly: Set<String>,
        signedDataOnly: Set<String>
    ) -> [String] {
        var problems: [String] = []
        for key in Set(receipt.keys).union(signedData.keys).sorted() {
            switch (receipt[key], signedData[key]) {
            case (let ours?, let theirs?):
                // A receipt's integer written as digits is a string of digits in signed data: both a JSON string.
                let agree = ours == theirs || (ours == .digits && theirs == .string)
                if !agree { problems.append("\(key): the receipt writes \(ours), signed data \(theirs)") }
                if receiptOnly.contains(key) || signedDataOnly.contains(key) {
                    problems.append("\(key): listed as one table's own, but both write it")
                }
            case (_?, nil) where !receiptOnly.contains(key):
                problems.append("\(key): only the receipt writes it, and it is not listed as the receipt's own")
            case (nil, _?) where !signedDataOnly.contains(key):
                problems.append("\(key): only signed data writes it, and it is not listed as signed data's own")
            default:
                break
            }
        }
        for key in receiptOnly.union(signedDataOnly).sorted() where receipt[key] == nil && signedData[key] == nil {
            problems.append("\(key): listed as a table's own, but no table writes it")
        }
        return problems
    }

    static var signedDataShapes: [String: VerifyReceiptValueShape] {
        Dictionary(uniqueKeysWithValues: JWSTransactionPayload.latestReceiptInfoFields.map { ($0.key.description, $0.shape) })
    }

    @Test func theReceiptTableAndTheSignedDataTableAgree() {
        let problems = Self.disagreements(
            receipt: InAppPurchase.verifyReceiptKeyShapes,
            signedData: Self.signedDataShapes,
            receiptOnly: JWSTransactionPayload.receiptOnlyKeys,
            signedDataOnly: JWSTransactionPayload.signedDataOnlyKeys)
        #expect(problems == [])
        // The tables are what they are said to be: the keys both write include the ids and the dates.
        let shared = Set(InAppPurchase.verifyReceiptKeyShapes.keys).intersection(Self.signedDataShapes.keys)
        #expect(shared.isSuperset(of: ["transaction_id", "original_transaction_id", "purchase_date", "expires_date", "quantity"]))
    }

    @Test func aDisagreementIsFound() {
        var receipt = InAppPurchase.verifyReceiptKeyShapes
        receipt["quantity"] = .number
        receipt["is_upgraded"] = .textFlag
        receipt["is_new_field"] = .string
        let problems = Self.disagreements(
            receipt: receipt,
            signedData: Self.signedDataShapes,
            receiptOnly: JWSTransactionPayload.receiptOnlyKeys,
            signedDataOnly: JWSTransactionPayload.signedDataOnlyKeys)
        #expect(problems == [
            "is_new_field: only the receipt writes it, and it is not listed as the receipt's own",
            "is_upgraded: listed as one table's own, but both write it",
            "quantity: the receipt writes number, signed data digits",
        ])
    }
}
