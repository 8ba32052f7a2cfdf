import AppStorePKI
extension LedgerRenewalInfo {
    /// The `receiptkit_renewal_info` columns renewal information fills, in the order they are written.
    static let columns: [LedgerColumn<LedgerRenewalInfo>] = [
        LedgerColumn("environment") { .text($0.environment.rawValue) },
        LedgerColumn("bundle_id") { .text($0.bundleIdentifier) },
        LedgerColumn("original_transaction_id") { .text($0.originalTransactionIdentifier) },
        LedgerColumn("product_id") { .text($0.productIdentifier) },
        LedgerColumn("updated_ms") { .integer($0.updatedMilliseconds) },
        LedgerColumn("renewal_json") { .text(String(decoding: $0.json, as: UTF8.self)) },
        LedgerColumn("source") { .text($0.source.rawValue) },
    ]

    /// The columns that identify renewal information (one per subscription).
    static let keyColumns = ["environment", "bundle_id", "original_transaction_id"]
}
