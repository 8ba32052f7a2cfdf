import AppStorePKI
extension LedgerOriginalTransaction {
    /// The `receiptkit_original_transactions` columns, in the order they are written.
    static let columns: [LedgerColumn<LedgerOriginalTransaction>] = [
        LedgerColumn("environment") { .text($0.environment.rawValue) },
        LedgerColumn("bundle_id") { .text($0.bundleIdentifier) },
        LedgerColumn("original_transaction_id") { .text($0.originalTransactionIdentifier) },
        LedgerColumn("latest_receipt_hash") { $0.latestReceiptHash.map(SQLValue.text) ?? .null },
        LedgerColumn("latest_receipt_created_ms") { .integer($0.latestReceiptCreationMilliseconds) },
        LedgerColumn("api_refreshed_ms") { .integer($0.apiRefreshedMilliseconds) },
    ]

    /// The columns that identify the record (one per original transaction id of an app and environment).
    static let keyColumns = ["environment", "bundle_id", "original_transaction_id"]

    /// What a receipt writes: it becomes the latest receipt unless a newer one (creation date, then hash) is
    /// recorded.
    static let receiptUpdate = OriginalTransactionUpsert(
        columns: ["latest_receipt_hash", "latest_receipt_created_ms"],
        condition: """
            receiptkit_original_transactions.latest_receipt_hash IS NULL
                OR (excluded.latest_receipt_created_ms, excluded.latest_receipt_hash)
                    > (receiptkit_original_transactions.latest_receipt_created_ms,
                       receiptkit_original_transactions.latest_receipt_hash)
            """
    )

    /// What a refresh from the App Store Server API writes: its time, unless a later one is recorded.
    static let refreshUpdate = OriginalTransactionUpsert(
        columns: ["api_refreshed_ms"],
        condition: """
            receiptkit_original_transactions.api_refreshed_ms IS NULL
                OR excluded.api_refreshed_ms > receiptkit_original_transactions.api_refreshed_ms
            """
    )

    /// The columns one kind of write replaces on conflict, and when.
    struct OriginalTransactionUpsert: Sendable {
        let columns: [String]
        let condition: String
    }
}
