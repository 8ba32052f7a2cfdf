import Foundation
import ReceiptKit
@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// `/verifyReceipt`'s ledger call, ``Ledger/recordAndSnapshot(_:)``: a receipt recorded before — by another
/// instance, or before a restart, so this process does not know it — is recognised with its snapshot in one read,
/// with no write; a new one is written once, through the group commit.
@Suite("Ledger recognition")
struct LedgerRecognitionTests {
    static let seen = Date(timeIntervalSince1970: 1_750_000_000)

    static func entry(_ tag: String, original: String) -> LedgerReceipt {
        let receipt = ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase(original, original: original, day: 1),
            ServiceTestPKI.purchase("\(original)1", original: original, day: 31),
            ServiceTestPKI.purchase("9\(original)", original: "9\(original)", product: "com.example.pro", day: 3, subscription: false),
        ])
        return LedgerReceipt(receipt, bytes: Array("receipt \(tag)".utf8), environment: .production, seenAt: Self.seen)
    }

    /// Two ledgers, one after the other or side by side, on one database: `first` writes, `second` has never
    /// seen what `first` wrote.
    static func withTwoLedgers(
        _ backend: LedgerBackend,
        _ body: @Sendable (_ first: any Ledger, _ second: @Sendable () async throws -> any Ledger) async throws -> Void
    ) async throws {
        switch backend {
        case .sqliteMemory:
            throw LedgerError(.unavailable, "two in-memory ledgers share no database")
        case .sqliteFile:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-recognise-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("ledger.sqlite").path
            let first = try await SQLiteLedger(path: path)
            let opened = OpenedLedgers()
            await opened.add(first)
            do {
                try await first.migrate()
                // One owner at a time: the second opens once the first is shut down.
                try await body(first) {
                    await opened.shutdown()
                    let second = try await SQLiteLedger(path: path)
                    await opened.add(second)
                    return second
                }
            } catch {
                await opened.shutdown()
                throw error
            }
            await opened.shutdown()
        case .postgres:
            try await LedgerBackend.withTwoPostgresLedgers { first, second in
                try await body(first) { second }
            }
        }
    }

    /// The ledgers open now: each is shut down once.
    actor OpenedLedgers {
        var ledgers: [any Ledger] = []
        func add(_ ledger: any Ledger) { self.ledgers.append(ledger) }
        func shutdown() async {
            let open = self.ledgers
            self.ledgers = []
            for ledger in open { await ledger.shutdown() }
        }
    }

    @Test(
        "a receipt recorded by another instance is recognised with its snapshot, without a write",
        arguments: LedgerBackend.available.filter { $0 != .sqliteMemory })
    func recognisedWithoutAWrite(backend: LedgerBackend) async throws {
        let known = Self.entry("known", original: "7000")
        let fresh = Self.entry("fresh", original: "8000")
        try await Self.withTwoLedgers(backend) { first, second in
            let recorded = try await first.recordAndSnapshot(known)
            #expect(recorded.summary == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 3))
            #expect(recorded.snapshot.transactions.map(\.transactionIdentifier) == ["70001", "97000", "7000"])
            #expect(recorded.snapshot.latestReceiptHash == known.hash)
            #expect(first.writeStatistics == LedgerWriteStatistics(transactions: 1, writes: 1))

            let other = try await second()
            let again = try await other.recordAndSnapshot(known)
            #expect(again.summary == LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0))
            #expect(again.snapshot == recorded.snapshot)
            #expect(other.writeStatistics == LedgerWriteStatistics(transactions: 0, writes: 0))
            // Known now: posted again, it is not looked for again.
            #expect(try await other.recordAndSnapshot(known).snapshot == recorded.snapshot)
            #expect(other.writeStatistics == LedgerWriteStatistics(transactions: 0, writes: 0))

            // A receipt never seen is written once, and read back.
            let written = try await other.recordAndSnapshot(fresh)
            #expect(written.summary == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 3))
            #expect(written.snapshot.transactions.map(\.transactionIdentifier) == ["80001", "98000", "8000"])
            #expect(other.writeStatistics == LedgerWriteStatistics(transactions: 1, writes: 1))
        }
    }

    @Test("concurrent new receipts share their transactions, and every one is recorded", arguments: LedgerBackend.available)
    func concurrentWritesShareCommits(backend: LedgerBackend) async throws {
        let entries = (0..<64).map { Self.entry("group-\($0)", original: "\(10_000 + $0)") }
        try await backend.withLedger { ledger in
            let summaries = try await withThrowingTaskGroup(of: LedgerWriteSummary.self) { group in
                for entry in entries { group.addTask { try await ledger.recordAndSnapshot(entry).summary } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(summaries.count == 64)
            #expect(summaries.allSatisfy { $0 == LedgerWriteSummary(receiptInserted: true, transactionsWritten: 3) })
            for entry in entries {
                #expect(try await ledger.receipt(hash: entry.hash) == entry.bytes)
            }
            let statistics = try #require(ledger.writeStatistics)
            #expect(statistics.writes == 64)
            // 64 writes arriving together while commits take their time: fewer transactions than writes.
            #expect(statistics.transactions < 64)
        }
    }

    /// Two instances' group commits write overlapping rows at once: receipts sharing transactions and original
    /// transactions, each instance's batches formed by whatever its callers sent together. Every write succeeds (a
    /// deadlock, SQLSTATE 40P01, would throw: the service would answer 21009) and every receipt is recorded once.
    /// Batches write rows sorted by their whole key, one order for all; with that order shuffled this test did not
    /// provoke a deadlock either, so it guards the outcome, not the order.
    @Test(
        "two PostgreSQL instances writing overlapping batches at once: every write succeeds, every receipt recorded once",
        .enabled(if: LedgerBackend.postgresURL != nil || LedgerBackend.postgresRequired))
    func overlappingBatchesAcrossInstances() async throws {
        // 40 customers; each receipt carries three of them, so that any two batches share transaction rows.
        let entries = (0..<1_200).map { index in
            let customers = [index % 40, (index * 7 + 3) % 40, (index * 13 + 5) % 40]
            let receipt = ServiceTestPKI.receipt(purchases: customers.map { customer in
                ServiceTestPKI.purchase("\(50_000 + customer)", original: "\(50_000 + customer)", day: 1 + index % 28)
            })
            return LedgerReceipt(receipt, bytes: Array("overlap \(index)".utf8), environment: .production, seenAt: Self.seen)
        }
        try await LedgerBackend.withTwoPostgresLedgers { first, second in
            let inserted = try await withThrowingTaskGroup(of: Int.self) { group in
                // Different receipts to each instance (a receipt both record would make one wait for the other's
                // commit at its insert, before any shared row), their transactions shared; 16 callers per instance,
                // each posting in turn, so that many small batches of both instances overlap in time.
                for caller in 0..<32 {
                    let ledger = caller % 2 == 0 ? first : second
                    let share = stride(from: caller, to: entries.count, by: 32).map { entries[$0] }
                    group.addTask {
                        var inserted = 0
                        for entry in share where try await ledger.record(entry).receiptInserted { inserted += 1 }
                        return inserted
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(inserted == entries.count)
            #expect(try await first.recordedReceipts(among: entries.map(\.hash)).count == entries.count)
            let batches = try #require(first.writeStatistics)
            #expect(batches.writes > batches.transactions, "the writes shared transactions")
        }
    }
}
