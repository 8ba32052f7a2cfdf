import AppStoreJWS

/// Apple's status of an auto-renewable subscription at a moment, from its latest transaction and its renewal
/// information, as Apple documents the values of `status` ("status", App Store Server API:
/// https://developer.apple.com/documentation/appstoreserverapi/status): 1 active, 2 expired, 3 in the billing retry
/// period, 4 in the billing grace period, 5 revoked.
///
/// - A transaction with a `revocationDate` (refunded, or revoked from family sharing) is revoked (5).
/// - One whose `expiresDate` is after the moment is active (1).
/// - Past its expiry, a subscription Apple is still trying to bill (`isInBillingRetryPeriod`) is in the grace period
///   (4) while `gracePeriodExpiresDate` is after the moment ("Reducing involuntary subscriber churn": the customer
///   keeps access during the grace period), else in billing retry (3).
/// - Otherwise it expired (2).
enum MirrorSubscriptionStatus {
    static func status(
        transaction: JWSTransactionPayload, renewal: JWSRenewalInfoPayload, nowMilliseconds: Int64
    ) -> Int64 {
        if transaction.fields.integer("revocationDate") != nil { return 5 }
        if let expires = transaction.fields.integer("expiresDate"), expires > nowMilliseconds { return 1 }
        if renewal.isInBillingRetryPeriod == true {
            if let grace = renewal.fields.integer("gracePeriodExpiresDate"), grace > nowMilliseconds { return 4 }
            return 3
        }
        return 2
    }
}
