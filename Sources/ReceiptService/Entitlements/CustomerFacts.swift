import struct Foundation.Date
import ReceiptLedger

/// What the ledger knows of one customer at a moment (``EntitlementEndpoint/facts(_:)``): every stored purchase
/// with what its signed value says, each subscription's renewal information, and the entitlement items the rules
/// give — what `GET /v1/entitlements` answers and the timeline page draws.
struct CustomerFacts: Sendable {
    /// The customer as the ledger holds them.
    let customer: LedgerCustomer
    /// Every stored transaction of the customer.
    let purchases: [PurchaseFacts]
    /// Each subscription's renewal information, by original transaction id.
    let renewals: [String: RenewalFacts]
    /// One item per subscription and per non-consumable or non-renewing purchase (``EntitlementRules``).
    let items: [EntitlementItem]
    /// The moment the items' states are for.
    let moment: Date
}
