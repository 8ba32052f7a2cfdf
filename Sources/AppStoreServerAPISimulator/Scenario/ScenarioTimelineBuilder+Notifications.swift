import AppStoreJWS
import struct Foundation.Date

extension ScenarioTimelineBuilder {
    /// A notification about a purchase of anything but an auto-renewable subscription.
    mutating func notify(
        _ type: String, _ subtype: String?, customer: String, product: ScenarioProduct, transaction id: String,
        extraData: [String: JSONValue] = [:]
    ) {
        var notification = ScenarioNotification(
            notificationUUID: self.random.uuid(), type: type, subtype: subtype, customer: customer,
            bundleIdentifier: product.bundleIdentifier, signedDate: self.date, status: nil,
            transaction: self.signed(self.transactions[id]?.fields), renewalInfo: nil)
        notification.extraData = extraData
        self.notifications.append(notification)
    }

    /// A notification about the customer's subscription in `group`, with its renewal info (set in the store too)
    /// and its status.
    mutating func notifySubscription(
        _ type: String, _ subtype: String?, customer: String, group: String, extraData: [String: JSONValue] = [:]
    ) {
        guard let subscription = self.subscriptions[customer]?[group],
            let transaction = self.transactions[subscription.latestTransactionID]
        else { return }
        let renewal = self.renewalInfo(subscription)
        self.renewals.append(renewal)
        var notification = ScenarioNotification(
            notificationUUID: self.random.uuid(), type: type, subtype: subtype, customer: customer,
            bundleIdentifier: transaction.fields["bundleId"]?.stringValue ?? "",
            signedDate: self.date, status: self.status(subscription, at: self.date),
            transaction: self.signed(transaction.fields), renewalInfo: renewal)
        notification.extraData = extraData
        self.notifications.append(notification)
    }

    /// A transaction's fields as signed at the step's moment.
    func signed(_ fields: [String: JSONValue]?) -> [String: JSONValue]? {
        guard var fields else { return nil }
        fields["signedDate"] = self.timestamp(self.date)
        return fields
    }

    /// The subscription's renewal info (`JWSRenewalInfoDecodedPayload`) at the step's moment.
    func renewalInfo(_ subscription: ScenarioSubscription) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "originalTransactionId": .string(subscription.originalTransactionID),
            "productId": .string(subscription.productID),
            "autoRenewProductId": .string(subscription.renewsTo),
            "autoRenewStatus": .number(JSONNumber(subscription.autoRenew ? 1 : 0)),
            "signedDate": self.timestamp(self.date),
            "environment": .string(self.environment),
            "recentSubscriptionStartDate": self.timestamp(subscription.recentStart),
            "isInBillingRetryPeriod": .bool(subscription.inBillingRetry),
        ]
        if subscription.autoRenew, !subscription.expired { fields["renewalDate"] = self.timestamp(subscription.expires) }
        if let until = subscription.graceUntil, subscription.inBillingRetry {
            fields["gracePeriodExpiresDate"] = self.timestamp(until)
        }
        if subscription.inBillingRetry || subscription.expired {
            fields["expirationIntent"] = .number(JSONNumber(subscription.expirationIntent ?? 2))
        }
        if let offer = subscription.pendingOffer {
            fields["offerType"] = .number(JSONNumber(offer.type))
            if let identifier = offer.identifier { fields["offerIdentifier"] = .string(identifier) }
        }
        return fields
    }

    /// Apple's `status`: 5 revoked, 1 active, 4 grace period, 3 billing retry, 2 expired.
    func status(_ subscription: ScenarioSubscription, at date: Date) -> Int64 {
        switch self.state(subscription, at: date) {
        case "revoked", "refunded": return 5
        case "active": return 1
        case "grace_period": return 4
        case "billing_retry": return 3
        default: return 2
        }
    }

    /// The service's entitlement state of a subscription at `date`.
    func state(_ subscription: ScenarioSubscription, at date: Date) -> String {
        if let revoked = self.transactions[subscription.latestTransactionID], revoked.fields["revocationDate"] != nil {
            return subscription.sharedBy == nil ? "refunded" : "revoked"
        }
        if !subscription.expired, subscription.inBillingRetry {
            if let until = subscription.graceUntil, until > date { return "grace_period" }
            return "billing_retry"
        }
        if !subscription.expired, subscription.expires > date { return "active" }
        return "expired"
    }

    /// Every customer's products at `date`.
    func outcomes(at date: Date) -> [ScenarioOutcome] {
        var outcomes: [ScenarioOutcome] = []
        for customer in self.scenario.customers {
            for (_, subscription) in (self.subscriptions[customer.id] ?? [:]).sorted(by: { $0.key < $1.key }) {
                outcomes.append(
                    ScenarioOutcome(
                        customer: customer.id, productID: subscription.productID,
                        originalTransactionID: subscription.originalTransactionID,
                        transactionID: subscription.latestTransactionID, state: self.state(subscription, at: date)))
            }
            let owned = (self.purchases[customer.id] ?? [:]).merging(self.shares[customer.id] ?? [:]) { bought, _ in bought }
            for (productID, id) in owned.sorted(by: { $0.key < $1.key }) {
                guard let stored = self.transactions[id] else { continue }
                let shared = stored.fields["inAppOwnershipType"]?.stringValue == "FAMILY_SHARED"
                let state = stored.fields["revocationDate"] != nil ? (shared ? "revoked" : "refunded") : "active"
                outcomes.append(
                    ScenarioOutcome(
                        customer: customer.id, productID: productID,
                        originalTransactionID: stored.fields["originalTransactionId"]?.stringValue ?? id,
                        transactionID: id, state: state))
            }
        }
        return outcomes
    }
}
