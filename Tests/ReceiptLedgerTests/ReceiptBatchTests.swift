import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// A group commit's receipts are written together, rows they share reduced to the one the database keeps: the
/// ledger ends as if they had been recorded one by one.
@Suite("Receipt batch")
struct ReceiptBatchTests {
    static let seen = Date(timeIntervalSince1970: 1_750_000_000)

    static func entry(_ tag: String, createdDay: Int, _ purchases: [InAppPurchase]) -> LedgerReceipt {
        LedgerReceipt(
            ServiceTestPKI.receipt(createdDay: createdDay, purchases: purchases), bytes: Array("receipt \(tag)".utf8),
            environment: .production, seenAt: Self.seen)
    }

    /// Runs one batch of `receipts` in one transaction of `ledger`'s backend.
    static func batch(_ receipts: [LedgerReceipt], in ledger: any Ledger) async throws -> [String: LedgerWriteSummary] {
        func run<Backend>(_ operations: LedgerOperations<Backend>) async throws -> [String: LedgerWriteSummary] {
            let batch = ReceiptBatch(statements: operations.statements)
            return try await operations.backend.transaction(exclusive: false) { session in
                try await batch.record(receipts, in: session)
            }
        }
        if let ledger = ledger as? SQLiteLedger { return try await run(ledger.operations) }
        if let ledger = ledger as? PostgresLedger { return try await run(ledger.operations) }
        throw LedgerError(.unavailable, "not a built-in ledger")
    }

    @Test("receipts sharing transactions, one posted twice and one recorded before, end as if recorded one by one", arguments: LedgerBackend.available)
    func batchEqualsOneByOne(backend: LedgerBackend) async throws {
        var cancelled = ServiceTestPKI.purchase("5000", original: "5000", day: 1)
        cancelled.cancellationDate = Date(timeIntervalSince1970: 1_680_000_000)
        let older = Self.entry("older", createdDay: 10, [
            ServiceTestPKI.purchase("5000", original: "5000", day: 1), ServiceTestPKI.purchase("5001", original: "5000", day: 31),
        ])
        let newer = Self.entry("newer", createdDay: 20, [
            cancelled, ServiceTestPKI.purchase("5001", original: "5000", day: 31),
            ServiceTestPKI.purchase("5002", original: "5000", day: 61),
        ])
        let middle = Self.entry("middle", createdDay: 15, [
            ServiceTestPKI.purchase("6000", original: "6000", product: "com.example.pro", day: 2, subscription: false),
            ServiceTestPKI.purchase("5001", original: "5000", day: 31),
        ])
        let before = Self.entry("before", createdDay: 30, [ServiceTestPKI.purchase("5003", original: "5000", day: 91)])
        let query = LedgerQuery(environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: ["5000", "6000"])

        let oneByOne = try await backend.withLedger { ledger in
            for entry in [before, older, newer, middle] { try await ledger.record(entry) }
            return try await ledger.snapshot(matching: query)
        }
        try await backend.withLedger { ledger in
            try await ledger.record(before)
            let summaries = try await Self.batch([middle, newer, older, newer], in: ledger)
            #expect(summaries.count == 3)
            #expect(summaries[before.hash] == nil)
            #expect(summaries[older.hash] == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 0))
            #expect(summaries[newer.hash] == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 3))
            #expect(summaries[middle.hash] == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 1))
            #expect(try await ledger.snapshot(matching: query) == oneByOne)
            // Posted again in a later batch, with the one recorded before: nothing changes.
            let again = try await Self.batch([before, older], in: ledger)
            #expect(again[before.hash] == LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0))
            #expect(again[older.hash] == LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0))
            #expect(try await ledger.snapshot(matching: query) == oneByOne)
        }
        // The newest receipt's versions, and the newest receipt per original transaction id.
        #expect(oneByOne.transactions.first { $0.transactionIdentifier == "5000" }?.cancellationDateMilliseconds == 1_680_000_000_000)
        #expect(oneByOne.transactions.first { $0.transactionIdentifier == "5001" }?.receiptHash == newer.hash)
        #expect(oneByOne.transactions.first { $0.transactionIdentifier == "6000" }?.receiptHash == middle.hash)
        #expect(oneByOne.originalTransactions.map(\.latestReceiptHash) == [before.hash, middle.hash])
    }
}
