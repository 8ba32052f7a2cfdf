@testable import ReceiptLedger
import LedgerTestSupport
import Testing

/// Which version of a transaction the ledger keeps is decided in two places: in Swift, when one update carries a
/// transaction twice (``LedgerTransaction/supersedes(_:)``, a multi-row upsert cannot touch a row twice), and in the
/// SQL upsert's condition, when a version meets the stored one. They must agree on every pair of versions, on every
/// backend.
@Suite("Ledger precedence")
struct LedgerPrecedenceTests {
    /// Every combination of what decides: age (creation or signing date), the hash that breaks a tie, what taught
    /// the row, and whether it records a refund.
    static let versions: [LedgerTransaction] = {
        var versions: [LedgerTransaction] = []
        for created in [1_000, 2_000] as [Int64] {
            for hash in ["a", "b"] {
                for source in [LedgerSource.receipt, .notification, .api] {
                    for cancellation in [nil, 5] as [Int64?] {
                        versions.append(
                            LedgerTransaction(
                                environment: .production, bundleIdentifier: "com.example.app",
                                transactionIdentifier: "", originalTransactionIdentifier: "",
                                productIdentifier: "com.example.monthly", purchaseDateMilliseconds: 1,
                                expiresDateMilliseconds: nil, cancellationDateMilliseconds: cancellation,
                                receiptHash: hash, receiptCreationMilliseconds: created,
                                json: Array(#"{"v":"\#(created)\#(hash)\#(source)\#(cancellation ?? 0)"}"#.utf8),
                                source: source))
                    }
                }
            }
        }
        return versions
    }()

    @Test("the SQL upsert keeps the version Swift's rule picks, for every ordered pair", arguments: LedgerBackend.available)
    func sqlAgreesWithSwift(backend: LedgerBackend) async throws {
        var pairs: [(stored: LedgerTransaction, incoming: LedgerTransaction)] = []
        for stored in Self.versions {
            for incoming in Self.versions {
                let id = String(pairs.count)
                var first = stored
                var second = incoming
                (first.transactionIdentifier, first.originalTransactionIdentifier) = (id, id)
                (second.transactionIdentifier, second.originalTransactionIdentifier) = (id, id)
                pairs.append((first, second))
            }
        }
        let all = pairs
        let expected = Dictionary(
            uniqueKeysWithValues: pairs.map { ($0.stored.transactionIdentifier, $0.incoming.supersedes($0.stored) ? $0.incoming : $0.stored) })
        // Not every pair is decided the same way by age alone: the refund rule must be exercised both ways.
        #expect(pairs.contains { $0.incoming.supersedes($0.stored) })
        #expect(pairs.contains { !$0.incoming.supersedes($0.stored) && $0.incoming.receiptCreationMilliseconds > $0.stored.receiptCreationMilliseconds })

        try await backend.withLedger { ledger in
            // One update per source, so each row keeps the source it was made with (an update stamps its own).
            for sources in [all.map(\.stored), all.map(\.incoming)] {
                for source in [LedgerSource.receipt, .notification, .api] {
                    let rows = sources.filter { $0.source == source }
                    try await ledger.apply(LedgerUpdate(source: source, transactions: rows))
                }
            }
            let query = LedgerQuery(
                environment: .production, bundleIdentifier: "com.example.app",
                originalTransactionIdentifiers: all.map(\.stored.transactionIdentifier))
            let stored = try await ledger.transactions(matching: query)
            #expect(stored.count == all.count)
            var disagreements: [String] = []
            for row in stored where expected[row.transactionIdentifier] != row {
                disagreements.append(row.transactionIdentifier)
            }
            #expect(disagreements.isEmpty, "SQL and Swift disagree on pairs \(disagreements.prefix(10))")
        }
    }

    @Test("one update carrying a transaction twice keeps the version the rule picks, in either order", arguments: LedgerBackend.available)
    func oneUpdateAgrees(backend: LedgerBackend) async throws {
        // Within one update every row has the update's source; the rule then decides by age and hash.
        let signed = Self.versions.filter { $0.source == .notification }
        try await backend.withLedger { ledger in
            var expected: [String: LedgerTransaction] = [:]
            var rows: [LedgerTransaction] = []
            for (i, a) in signed.enumerated() {
                for (j, b) in signed.enumerated() where i != j {
                    let id = "\(i)-\(j)"
                    var first = a
                    var second = b
                    (first.transactionIdentifier, first.originalTransactionIdentifier) = (id, id)
                    (second.transactionIdentifier, second.originalTransactionIdentifier) = (id, id)
                    rows += [first, second]
                    expected[id] = second.supersedes(first) ? second : first
                }
            }
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: rows))
            let query = LedgerQuery(
                environment: .production, bundleIdentifier: "com.example.app", originalTransactionIdentifiers: Array(expected.keys))
            let stored = try await ledger.transactions(matching: query)
            #expect(stored.count == expected.count)
            #expect(stored.allSatisfy { expected[$0.transactionIdentifier] == $0 })
        }
    }
}
