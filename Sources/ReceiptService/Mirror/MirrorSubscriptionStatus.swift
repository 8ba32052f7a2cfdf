import AppStoreJWS

/// Apple's status of an auto-renewable subscription at a moment, from its latest transaction and its renewal
/// information, as Apple documents the values of `status` ("status", App Store Server API:
/// https://developer.apple.com/documentation/appstoreserverapi/status): 1 active, 2 expired, 3 in the billing retry
/// period, 4 in the billing grace period, 5 revoked — the state ``EntitlementRules`` gives the subscription, so that
/// the mirror and the entitlements endpoint never disagree.
enum MirrorSubscriptionStatus {
    static func status(
        transaction: JWSTransactionPayload, renewal: JWSRenewalInfoPayload, nowMilliseconds: Int64
    ) -> Int64 {
        EntitlementRules.state(PurchaseFacts(transaction), renewal: RenewalFacts(renewal), at: nowMilliseconds).appleStatus
    }
}
