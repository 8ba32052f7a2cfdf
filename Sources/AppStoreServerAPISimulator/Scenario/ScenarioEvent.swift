/// One event of a scenario's timeline: at ``at`` after the scenario's start, something happens to a customer's
/// purchase, and the App Store sends the notification Apple documents for it.
public struct ScenarioEvent: Sendable, Hashable {
    /// What happens.
    public enum Kind: Sendable, Hashable {
        /// A purchase of `product`: `SUBSCRIBED` (`INITIAL_BUY`, or `RESUBSCRIBE` in a group the customer had
        /// left), or `ONE_TIME_CHARGE` for anything but an auto-renewable subscription.
        case purchase(product: String)
        /// The subscription renews (into the product it renews to): `DID_RENEW`.
        case renew
        /// A renewal fails to bill: `DID_FAIL_TO_RENEW`, subtype `GRACE_PERIOD` when `gracePeriod` is given (the
        /// customer keeps access that long after the expiry).
        case billingFailure(gracePeriod: ScenarioPeriod?)
        /// The grace period ends with billing still failing: `GRACE_PERIOD_EXPIRED`.
        case gracePeriodExpired
        /// Billing succeeds again during retry: `DID_RENEW`, subtype `BILLING_RECOVERY`.
        case billingRecovery
        /// The subscription ends: `EXPIRED` with subtype `VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE` or
        /// `PRODUCT_NOT_FOR_SALE`.
        case expire(reason: ExpiryReason)
        /// Auto-renew is turned off or on: `DID_CHANGE_RENEWAL_STATUS` (`AUTO_RENEW_DISABLED`, `AUTO_RENEW_ENABLED`).
        case autoRenew(enabled: Bool)
        /// A move to a higher level of the group, at once: `DID_CHANGE_RENEWAL_PREF` / `UPGRADE`, a new transaction.
        case upgrade(product: String)
        /// A move to a lower level, from the next renewal: `DID_CHANGE_RENEWAL_PREF` / `DOWNGRADE`.
        case downgrade(product: String)
        /// An offer redeemed: `OFFER_REDEEMED` — a purchase with the offer (`INITIAL_BUY`/`RESUBSCRIBE`) when the
        /// customer has no active subscription of `product`'s group, otherwise the offer applies from the next
        /// renewal (no subtype).
        case offerRedeemed(product: String, offerType: Int64, offerIdentifier: String?)
        /// The App Store refunds the latest purchase of `product` (its group for a subscription): `REFUND`;
        /// `reason` 0 for another reason, 1 for an issue in the app.
        case refund(product: String, reason: Int64)
        /// A refund request declined: `REFUND_DECLINED`.
        case refundDeclined(product: String)
        /// A refund taken back: `REFUND_REVERSED`.
        case refundReversed(product: String)
        /// The App Store asks for consumption information about a refund request: `CONSUMPTION_REQUEST`.
        case consumptionRequest(product: String)
        /// The customer's purchase of `product` is shared with `member` by Family Sharing: the member's own
        /// transaction (`FAMILY_SHARED`) and its `SUBSCRIBED` / `ONE_TIME_CHARGE`.
        case familyShare(product: String, member: String)
        /// The purchaser stops sharing `product` with `member`: `REVOKE` for the member's transaction.
        case familyRevoke(product: String, member: String)
        /// The renewal date is extended (`Extend a Subscription Renewal Date`): `RENEWAL_EXTENDED`.
        case extend(period: ScenarioPeriod)
    }

    /// Why a subscription ended (`expirationIntent`).
    public enum ExpiryReason: String, Sendable, Hashable, CaseIterable {
        case voluntary, billingRetry = "billing_retry", priceIncrease = "price_increase"
        case productNotForSale = "product_not_for_sale"

        var subtype: String {
            switch self {
            case .voluntary: return "VOLUNTARY"
            case .billingRetry: return "BILLING_RETRY"
            case .priceIncrease: return "PRICE_INCREASE"
            case .productNotForSale: return "PRODUCT_NOT_FOR_SALE"
            }
        }

        var intent: Int64 {
            switch self {
            case .voluntary: return 1
            case .billingRetry: return 2
            case .priceIncrease: return 3
            case .productNotForSale: return 4
            }
        }
    }

    /// How long after the scenario's start it happens.
    public var at: ScenarioPeriod
    /// The customer it happens to (the purchaser, for Family Sharing).
    public var customer: String
    /// For an auto-renewable subscription's events (`renew`, `billing_failure`, …), the group; `nil` when the
    /// customer has one subscription only.
    public var subscriptionGroup: String?
    public var kind: Kind

    public init(at: ScenarioPeriod, customer: String, subscriptionGroup: String? = nil, kind: Kind) {
        self.at = at
        self.customer = customer
        self.subscriptionGroup = subscriptionGroup
        self.kind = kind
    }
}
