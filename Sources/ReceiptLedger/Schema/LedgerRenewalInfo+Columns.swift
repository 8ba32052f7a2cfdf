import AppStorePKI

extension LedgerRenewalInfo {
    /// `receiptkit_renewal_info`: its columns, in the order they are written (one row per subscription).
    static let table = LedgerTable<LedgerRenewalInfo>(
        name: "receiptkit_renewal_info",
        tag: "r",
        columns: [
            .scope("environment") { $0.environment.rawValue },
            .scope("bundle_id") { $0.bundleIdentifier },
            .text("original_transaction_id", { $0.originalTransactionIdentifier }, { $0.originalTransactionIdentifier = $1 }),
            .text("product_id", { $0.productIdentifier }, { $0.productIdentifier = $1 }),
            .integer("updated_ms", { $0.updatedMilliseconds }, { $0.updatedMilliseconds = $1 }),
            .json("renewal_json", { $0.json }, { $0.json = $1 }),
            .text("source", { $0.source.rawValue }, { $0.source = LedgerSource(rawValue: $1) }),
            .optionalText("signed_jws", { $0.signedJWS }, { $0.signedJWS = $1 }),
        ],
        keyColumns: ["environment", "bundle_id", "original_transaction_id"],
        blank: { query in
            LedgerRenewalInfo(
                environment: query.environment, bundleIdentifier: query.bundleIdentifier,
                originalTransactionIdentifier: "", productIdentifier: "", updatedMilliseconds: 0, json: [])
        }
    )
}
