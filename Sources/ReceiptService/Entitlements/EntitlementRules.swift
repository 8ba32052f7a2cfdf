import AppStoreJWS

/// What a customer is entitled to at a moment, from what the ledger knows: the rules, written once, behind the
/// entitlements endpoint and the App Store Server API mirror's subscription statuses.
///
/// - A purchase revoked at or before the moment (`revocationDate`, "revocationDate":
///   https://developer.apple.com/documentation/appstoreserverapi/revocationdate) is `refunded` when it was the
///   customer's own and `revoked` when it came through Family Sharing (`inAppOwnershipType` `FAMILY_SHARED`: the
///   purchaser stopped sharing, or was refunded; "REVOKE", App Store Server Notifications).
/// - A subscription whose latest transaction expires after the moment is `active`.
/// - Past its expiry, a subscription the App Store is still trying to bill (`isInBillingRetryPeriod`,
///   https://developer.apple.com/documentation/appstoreserverapi/isinbillingretryperiod) is in its grace period
///   while `gracePeriodExpiresDate` is after the moment — the customer keeps access ("Reducing involuntary
///   subscriber churn", https://developer.apple.com/documentation/storekit/reducing-involuntary-subscriber-churn)
///   — and in billing retry after it; otherwise it has `expired` (`expirationIntent` says why).
/// - A purchase without an expiry date (a non-consumable, a non-renewing subscription, one a receipt alone taught)
///   is `active` until revoked; a consumable entitles nothing.
/// - A subscription is its latest transaction by purchase date: an upgrade's transaction starts at once and ends
///   the old product ("Handling subscriptions billing: upgrades": the customer gets the higher level immediately),
///   a downgrade shows only in the renewal information until the next renewal brings the new product's
///   transaction, and a refunded renewal does not revoke the renewals after it.
/// - Only what was bought by the moment counts: a purchase after it is not yet, a revocation after it not yet.
enum EntitlementRules {
    /// The state of `purchase`, a subscription's latest transaction or a product's, at `moment` (milliseconds).
    static func state(_ purchase: PurchaseFacts, renewal: RenewalFacts?, at moment: Int64) -> EntitlementState {
        if let revoked = purchase.revocationMilliseconds, revoked <= moment {
            return purchase.ownership == .familyShared ? .revoked : .refunded
        }
        guard let expires = purchase.expiresMilliseconds else { return .active }
        if expires > moment { return .active }
        guard purchase.kind == .autoRenewable, renewal?.isInBillingRetryPeriod == true else { return .expired }
        if let grace = renewal?.gracePeriodExpiresMilliseconds, grace > moment { return .gracePeriod }
        return .billingRetry
    }

    /// One item for each subscription — an original transaction id, which an upgrade, a downgrade or a crossgrade
    /// within the group keeps while the product changes, so two items of one group are two subscriptions (the
    /// customer's own and one shared by the family, say), each with its own state — and for each other product the
    /// customer bought by `moment`, in product id order. Consumables entitle nothing and have none; neither does a
    /// purchase of unknown type that the customer's newest receipt no longer carries (`leftTheNewestReceipt`: a
    /// consumable the app finished leaves the receipt, a non-consumable never does). `names` maps product ids to
    /// entitlement names (a product without any names itself).
    static func items(
        _ purchases: [PurchaseFacts], renewals: [String: RenewalFacts], names: [String: [String]], at moment: Int64,
        leftTheNewestReceipt: (PurchaseFacts) -> Bool = { _ in false }
    ) -> [EntitlementItem] {
        var latest: [String: PurchaseFacts] = [:]
        var learnt: [String: Int64] = [:]
        for purchase in purchases where purchase.kind != .consumable {
            if let bought = purchase.purchaseMilliseconds, bought > moment { continue }
            if purchase.kind == .lasting, leftTheNewestReceipt(purchase) { continue }
            let key =
                Self.isSubscription(purchase)
                ? "subscription:" + purchase.originalTransactionID : "product:" + purchase.productID
            learnt[key] = max(learnt[key] ?? Int64.min, purchase.versionMilliseconds)
            if let held = latest[key], Self.order(held) >= Self.order(purchase) { continue }
            latest[key] = purchase
        }
        return latest.map { key, purchase in
            let renewal = Self.isSubscription(purchase) ? renewals[purchase.originalTransactionID] : nil
            let updated = max(learnt[key] ?? purchase.versionMilliseconds, renewal?.versionMilliseconds ?? Int64.min)
            return EntitlementItem(
                purchase: purchase, renewal: renewal, state: Self.state(purchase, renewal: renewal, at: moment),
                entitlements: names[purchase.productID] ?? [purchase.productID], updatedMilliseconds: updated)
        }
        .sorted { ($0.purchase.productID, $0.purchase.originalTransactionID) < ($1.purchase.productID, $1.purchase.originalTransactionID) }
    }

    /// Whether `purchase` is an auto-renewable subscription's (signed data says so; a receipt's has an expiry date).
    static func isSubscription(_ purchase: PurchaseFacts) -> Bool {
        purchase.kind == .autoRenewable
    }

    /// The order of a subscription's transactions: purchase date, then expiry, then id.
    private static func order(_ purchase: PurchaseFacts) -> (Int64, Int64, String) {
        (purchase.purchaseMilliseconds ?? Int64.min, purchase.expiresMilliseconds ?? Int64.min, purchase.transactionID)
    }
}
