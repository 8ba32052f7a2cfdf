import AppStorePKI

extension LedgerTransaction {
    /// `receiptkit_transactions`: its columns, in the order they are written.
    static let table = LedgerTable<LedgerTransaction>(
        name: "receiptkit_transactions",
        tag: "t",
        columns: [
            .scope("environment") { $0.environment.rawValue },
            .text("transaction_id", { $0.transactionIdentifier }, { $0.transactionIdentifier = $1 }),
            .text("original_transaction_id", { $0.originalTransactionIdentifier }, { $0.originalTransactionIdentifier = $1 }),
            .scope("bundle_id") { $0.bundleIdentifier },
            .text("product_id", { $0.productIdentifier }, { $0.productIdentifier = $1 }),
            .optionalInteger("purchase_ms", { $0.purchaseDateMilliseconds }, { $0.purchaseDateMilliseconds = $1 }),
            .optionalInteger("expires_ms", { $0.expiresDateMilliseconds }, { $0.expiresDateMilliseconds = $1 }),
            .optionalInteger("cancellation_ms", { $0.cancellationDateMilliseconds }, { $0.cancellationDateMilliseconds = $1 }),
            .text("receipt_hash", { $0.receiptHash }, { $0.receiptHash = $1 }),
            .integer("receipt_created_ms", { $0.receiptCreationMilliseconds }, { $0.receiptCreationMilliseconds = $1 }),
            .json("purchase_json", { $0.json }, { $0.json = $1 }),
            .text("source", { $0.source.rawValue }, { $0.source = LedgerSource(rawValue: $1) }),
            // Written with the row, not read by snapshots: `/verifyReceipt` reads those on every request, and a JWS
            // is several times its row's JSON (``Ledger/signedTransaction(environment:bundleIdentifier:transactionIdentifier:)`` reads it).
            .writeOnly("signed_jws") { $0.signedJWS.map(SQLValue.text) ?? .null },
        ],
        keyColumns: ["environment", "bundle_id", "transaction_id"],
        blank: { query in
            LedgerTransaction(
                environment: query.environment, bundleIdentifier: query.bundleIdentifier, transactionIdentifier: "",
                originalTransactionIdentifier: "", productIdentifier: "", purchaseDateMilliseconds: nil,
                expiresDateMilliseconds: nil, cancellationDateMilliseconds: nil, receiptHash: "",
                receiptCreationMilliseconds: 0, json: [])
        }
    )
}
