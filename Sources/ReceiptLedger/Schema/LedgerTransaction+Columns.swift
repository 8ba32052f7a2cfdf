import AppStorePKI
extension LedgerTransaction {
    /// The `receiptkit_transactions` columns a transaction fills, in the order they are written.
    static let columns: [LedgerColumn<LedgerTransaction>] = [
        LedgerColumn("environment") { .text($0.environment.rawValue) },
        LedgerColumn("transaction_id") { .text($0.transactionIdentifier) },
        LedgerColumn("original_transaction_id") { .text($0.originalTransactionIdentifier) },
        LedgerColumn("bundle_id") { .text($0.bundleIdentifier) },
        LedgerColumn("product_id") { .text($0.productIdentifier) },
        LedgerColumn("purchase_ms") { .integer($0.purchaseDateMilliseconds) },
        LedgerColumn("expires_ms") { .integer($0.expiresDateMilliseconds) },
        LedgerColumn("cancellation_ms") { .integer($0.cancellationDateMilliseconds) },
        LedgerColumn("receipt_hash") { .text($0.receiptHash) },
        LedgerColumn("receipt_created_ms") { .integer($0.receiptCreationMilliseconds) },
        LedgerColumn("purchase_json") { .text(String(decoding: $0.json, as: UTF8.self)) },
        LedgerColumn("source") { .text($0.source.rawValue) },
    ]

    /// The columns that identify a transaction (the upsert's conflict target, never updated).
    static let keyColumns = ["environment", "bundle_id", "transaction_id"]
}
