/// The receipts of one group commit, recorded together in a few statements rather than a few each: one multi-row
/// `INSERT` of the receipts (those recorded before are skipped), then, for the new ones only, one upsert of their
/// transactions and one of their original-transaction records (per ``LedgerStatements/chunkSize`` rows).
///
/// A statement may not name a row twice (PostgreSQL's `ON CONFLICT DO UPDATE` refuses it), so rows the batch's
/// receipts share are reduced first to the version from the newest receipt (by creation date, then hash), which the
/// upsert's own condition then weighs against the stored row. The outcome is the one of writing the receipts one by
/// one — in any order, receipts never disagreeing — with one exception: when a stored row is a refund signed data
/// recorded and the newest receipt's version shows no cancellation (the refund reversed? the receipt older than
/// Apple's word?), the refund stays, though an older receipt of the batch recording a cancellation would, written
/// first, have let the newest receipt replace it. Rows are written sorted by their whole key, so that concurrent
/// writers (other instances) take their locks in one order.
struct ReceiptBatch: Sendable {
    let statements: LedgerStatements

    /// Records `receipts` in `session`'s transaction; the summary of each, by receipt hash.
    func record(_ receipts: [LedgerReceipt], in session: any SQLSession) async throws -> [String: LedgerWriteSummary] {
        var seen = Set<String>()
        let distinct = receipts.filter { seen.insert($0.hash).inserted }.sorted { $0.hash < $1.hash }
        var inserted = Set<String>()
        for chunk in LedgerStatements.chunks(distinct) {
            for row in try await session.run(self.statements.insertReceipts(chunk)) {
                if case .text(let hash)? = row.first { inserted.insert(hash) }
            }
        }
        var summaries: [String: LedgerWriteSummary] = [:]
        for receipt in distinct where !inserted.contains(receipt.hash) {
            // Recorded before (its transactions were upserted with it): nothing to do.
            summaries[receipt.hash] = LedgerWriteSummary(receiptInserted: false, transactionsWritten: 0)
        }
        let fresh = distinct.filter { inserted.contains($0.hash) }
        guard !fresh.isEmpty else { return summaries }

        // Each transaction once: the version the newest receipt carries.
        var kept: [TransactionKey: LedgerTransaction] = [:]
        var carried: [(hash: String, keys: [TransactionKey])] = []
        for receipt in fresh {
            var keys: [TransactionKey] = []
            for transaction in receipt.transactions {
                let key = TransactionKey(transaction)
                keys.append(key)
                if let held = kept[key], !transaction.supersedes(held) { continue }
                kept[key] = transaction
            }
            carried.append((receipt.hash, keys))
        }
        let rows = kept.values.sorted { TransactionKey($0) < TransactionKey($1) }
        var written = Set<TransactionKey>()
        for chunk in LedgerStatements.chunks(rows) {
            for row in try await session.run(self.statements.upsertTransactions(chunk)) {
                guard row.count == 3, case .text(let environment) = row[0], case .text(let bundle) = row[1],
                    case .text(let id) = row[2]
                else { continue }
                written.insert(TransactionKey(environment: environment, bundle: bundle, id: id))
            }
        }

        // Each original transaction id once: the newest receipt that carried it.
        var newest: [TransactionKey: LedgerOriginalTransaction] = [:]
        for receipt in fresh {
            for id in LedgerQuery(receipt: receipt).originalTransactionIdentifiers {
                let record = LedgerOriginalTransaction(
                    environment: receipt.environment, bundleIdentifier: receipt.bundleIdentifier,
                    originalTransactionIdentifier: id, latestReceiptHash: receipt.hash,
                    latestReceiptCreationMilliseconds: receipt.creationMilliseconds, apiRefreshedMilliseconds: nil)
                let key = TransactionKey(environment: receipt.environment.rawValue, bundle: receipt.bundleIdentifier, id: id)
                if let held = newest[key],
                    (held.latestReceiptCreationMilliseconds ?? 0, held.latestReceiptHash ?? "")
                        >= (receipt.creationMilliseconds, receipt.hash)
                {
                    continue
                }
                newest[key] = record
            }
        }
        let originals = newest.sorted { $0.key < $1.key }.map(\.value)
        for chunk in LedgerStatements.chunks(originals) {
            _ = try await session.run(
                self.statements.upsertOriginalTransactions(chunk, LedgerOriginalTransaction.receiptUpdate))
        }

        for (hash, keys) in carried {
            // A transaction counts for the receipt whose version the database took.
            let count = keys.filter { written.contains($0) && kept[$0]?.receiptHash == hash }.count
            summaries[hash] = LedgerWriteSummary(receiptInserted: true, transactionsWritten: count)
        }
        return summaries
    }

    /// A row's key: environment, app, and transaction id (or original transaction id).
    struct TransactionKey: Hashable, Comparable, Sendable {
        let environment: String
        let bundle: String
        let id: String

        init(environment: String, bundle: String, id: String) {
            self.environment = environment
            self.bundle = bundle
            self.id = id
        }

        static func < (lhs: TransactionKey, rhs: TransactionKey) -> Bool {
            (lhs.environment, lhs.bundle, lhs.id) < (rhs.environment, rhs.bundle, rhs.id)
        }

        init(_ transaction: LedgerTransaction) {
            self.init(
                environment: transaction.environment.rawValue, bundle: transaction.bundleIdentifier,
                id: transaction.transactionIdentifier)
        }
    }
}
