/// The receipts of one group commit, recorded together in a few statements rather than a few each: one multi-row
/// `INSERT` of the receipts (those recorded before are skipped), then, for the new ones only, one upsert of their
/// transactions and one of their original-transaction records (per ``LedgerStatements/chunkSize`` rows).
///
/// A statement may not name a row twice (PostgreSQL's `ON CONFLICT DO UPDATE` refuses it), so rows the batch's
/// receipts share are reduced first to the one the database would keep — the version from the newest receipt (by
/// creation date, then hash), as the upsert's own condition decides between a stored row and a new one: the outcome
/// is the same as writing the receipts one by one, in any order.
struct ReceiptBatch: Sendable {
    let statements: LedgerStatements

    /// Records `receipts` in `session`'s transaction; the summary of each, by receipt hash.
    func record(_ receipts: [LedgerReceipt], in session: any SQLSession) async throws -> [String: LedgerWriteSummary] {
        var seen = Set<String>()
        let distinct = receipts.filter { seen.insert($0.hash).inserted }
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
        let rows = kept.values.sorted { ($0.transactionIdentifier, $0.receiptHash) < ($1.transactionIdentifier, $1.receiptHash) }
        var written = Set<String>()
        for chunk in LedgerStatements.chunks(rows) {
            for row in try await session.run(self.statements.upsertTransactions(chunk)) {
                if case .text(let id)? = row.first { written.insert(id) }
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
                let key = TransactionKey(environment: receipt.environment, bundle: receipt.bundleIdentifier, id: id)
                if let held = newest[key],
                    (held.latestReceiptCreationMilliseconds ?? 0, held.latestReceiptHash ?? "")
                        >= (receipt.creationMilliseconds, receipt.hash)
                {
                    continue
                }
                newest[key] = record
            }
        }
        let originals = newest.values.sorted { $0.originalTransactionIdentifier < $1.originalTransactionIdentifier }
        for chunk in LedgerStatements.chunks(originals) {
            _ = try await session.run(
                self.statements.upsertOriginalTransactions(chunk, LedgerOriginalTransaction.receiptUpdate))
        }

        for (hash, keys) in carried {
            // A transaction counts for the receipt whose version the database took.
            let count = keys.filter { written.contains($0.id) && kept[$0]?.receiptHash == hash }.count
            summaries[hash] = LedgerWriteSummary(receiptInserted: true, transactionsWritten: count)
        }
        return summaries
    }

    /// A row's key: environment, app, and transaction id (or original transaction id).
    struct TransactionKey: Hashable, Sendable {
        let environment: AppStoreEnvironment
        let bundle: String
        let id: String

        init(environment: AppStoreEnvironment, bundle: String, id: String) {
            self.environment = environment
            self.bundle = bundle
            self.id = id
        }

        init(_ transaction: LedgerTransaction) {
            self.init(
                environment: transaction.environment, bundle: transaction.bundleIdentifier,
                id: transaction.transactionIdentifier)
        }
    }
}
