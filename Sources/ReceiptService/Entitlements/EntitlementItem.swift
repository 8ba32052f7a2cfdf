import AppStoreJWS
import ReceiptLedger

/// One item of an entitlements answer: a subscription group or a product, its latest purchase, its renewal
/// information, its state at the moment asked, and the entitlement names it carries.
struct EntitlementItem: Sendable {
    let purchase: PurchaseFacts
    let renewal: RenewalFacts?
    let state: EntitlementState
    let entitlements: [String]
    /// The date of the newest data the ledger holds for it (a receipt's creation date or Apple's signing date).
    let updatedMilliseconds: Int64

    /// The item as the endpoint answers it (dates in milliseconds since 1970; an unknown value is `null`).
    var json: JSONValue {
        let purchase = self.purchase
        func number(_ value: Int64?) -> JSONValue { value.map { .number(JSONNumber($0)) } ?? .null }
        func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let revoked = self.state == .revoked || self.state == .refunded
        let expired = self.state == .expired || self.state == .billingRetry || self.state == .gracePeriod
        let renews: JSONValue
        switch self.renewal?.autoRenewStatus {
        case .on?: renews = .bool(true)
        case .off?: renews = .bool(false)
        default: renews = .null
        }
        let ownership: JSONValue
        switch purchase.ownership {
        case .purchased?: ownership = .string("purchased")
        case .familyShared?: ownership = .string("family_shared")
        case .assigned?: ownership = .string("assigned")
        default: ownership = .null
        }
        return .object([
            "product_id": .string(purchase.productID),
            "original_transaction_id": .string(purchase.originalTransactionID),
            "transaction_id": .string(purchase.transactionID),
            "type": .string(purchase.kind.rawValue),
            "subscription_group_identifier": string(purchase.subscriptionGroup),
            "entitlements": .array(self.entitlements.map(JSONValue.string)),
            "state": .string(self.state.rawValue),
            "grants_access": .bool(self.state.grantsAccess),
            "purchase_date_ms": number(purchase.purchaseMilliseconds),
            "original_purchase_date_ms": number(purchase.originalPurchaseMilliseconds),
            "expires_date_ms": number(purchase.expiresMilliseconds),
            "grace_period_expires_date_ms": number(self.renewal?.gracePeriodExpiresMilliseconds),
            "expiration_intent": expired ? number(self.renewal?.expirationIntent?.rawValue) : .null,
            "revocation_date_ms": revoked ? number(purchase.revocationMilliseconds) : .null,
            "revocation_reason": revoked ? number(purchase.revocationReason?.rawValue) : .null,
            "will_renew": renews,
            "renews_to_product_id": string(self.renewal?.autoRenewProductID),
            "renewal_offer": self.renewal?.offer?.json ?? .null,
            "offer": purchase.offer?.json ?? .null,
            "ownership": ownership,
            "updated_date_ms": .number(JSONNumber(self.updatedMilliseconds)),
            "source": .string(purchase.source.rawValue),
        ])
    }
}
