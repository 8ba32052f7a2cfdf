import AppStorePKI
extension LedgerOriginalTransaction {
    /// `receiptkit_original_transactions`: its columns, in the order they are written (one row per original
    /// transaction id of an app and environment).
    static let table = LedgerTable<LedgerOriginalTransaction>(
        name: "receiptkit_original_transactions",
        tag: "o",
        columns: [
            .scope("environment") { $0.environment.rawValue },
            .scope("bundle_id") { $0.bundleIdentifier },
            .text("original_transaction_id", { $0.originalTransactionIdentifier }, { $0.originalTransactionIdentifier = $1 }),
            .optionalText("latest_receipt_hash", { $0.latestReceiptHash }, { $0.latestReceiptHash = $1 }),
            .optionalInteger(
                "latest_receipt_created_ms", { $0.latestReceiptCreationMilliseconds },
                { $0.latestReceiptCreationMilliseconds = $1 }),
            .optionalInteger("api_refreshed_ms", { $0.apiRefreshedMilliseconds }, { $0.apiRefreshedMilliseconds = $1 }),
        ],
        keyColumns: ["environment", "bundle_id", "original_transaction_id"],
        blank: { query in
            LedgerOriginalTransaction(
                environment: query.environment, bundleIdentifier: query.bundleIdentifier,
                originalTransactionIdentifier: "", latestReceiptHash: nil, latestReceiptCreationMilliseconds: nil,
                apiRefreshedMilliseconds: nil)
        }
    )

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
