import ReceiptLedger

/// What a ledger holds of one customer, read for `receiptkit simulate export`: the customer's original
/// transactions with their transactions, renewal information and recorded notifications, and the state the ledger's
/// own rules give each subscription at the export's moment.
struct ExportedCustomer: Sendable {
    var originalTransactionIdentifiers: [String]
    var transactions: [LedgerTransaction]
    /// The JWS the ledger stored for a transaction, by transaction id (signed data only: receipts carry none).
    var signedTransactions: [String: String]
    var renewalInfo: [LedgerRenewalInfo]
    /// Oldest signed first.
    var notifications: [LedgerNotificationEntry]
    /// The entitlement state (`active`, `grace_period`, `billing_retry`, `expired`, `revoked`) of each subscription
    /// the ledger's statuses answer, by original transaction id.
    var states: [String: String]
}
