import AppStoreJWS
import struct Foundation.Date

/// The state a ``ScenarioTimeline`` keeps while it lives its events, and how each event changes it.
struct ScenarioTimelineBuilder {
    let scenario: SimulationScenario
    let start: Date
    var random: SeededGenerator
    var nextIdentifier: Int64
    var transactions: [String: ScenarioStep.Transaction] = [:]
    /// By customer, then group.
    var subscriptions: [String: [String: ScenarioSubscription]] = [:]
    /// The latest transaction of each other product, by customer then product.
    var purchases: [String: [String: String]] = [:]
    /// Shares of other products, by member then product: the member's transaction.
    var shares: [String: [String: String]] = [:]

    // Per step.
    var date = Date(timeIntervalSince1970: 0)
    var index = 0
    var changed: [String] = []
    var renewals: [[String: JSONValue]] = []
    var notifications: [ScenarioNotification] = []

    init(scenario: SimulationScenario, start: Date, seed: UInt64) {
        self.scenario = scenario
        self.start = start
        self.random = SeededGenerator(seed: seed)
        // 16 digits, as Apple's; a range of its own per seed, so that runs against one ledger do not collide.
        self.nextIdentifier = 2_000_000_000_000_000 + Int64(seed % 700_000_000_000_000)
    }

    func impossible(_ why: String) -> ScenarioError {
        ScenarioError(.impossibleEvent, "events[\(self.index)] (\(self.customerLabel)): \(why)")
    }

    var customerLabel: String { self.scenario.events[self.index].customer }

    mutating func identifier() -> String {
        self.nextIdentifier += 1
        return String(self.nextIdentifier)
    }

    func product(_ id: String) throws(ScenarioError) -> ScenarioProduct {
        guard let product = self.scenario.product(id) else { throw self.impossible("no product \(id)") }
        return product
    }

    func customer(_ id: String) -> ScenarioCustomer? { self.scenario.customers.first { $0.id == id } }

    var environment: String { self.scenario.environment.rawValue }

    func timestamp(_ date: Date) -> JSONValue { .number(AppStoreTimestamp(date).number) }

    // MARK: Steps

    mutating func step(_ event: ScenarioEvent, index: Int, at date: Date) throws(ScenarioError) -> ScenarioStep {
        self.date = date
        self.index = index
        self.changed = []
        self.renewals = []
        self.notifications = []
        let customer = event.customer
        switch event.kind {
        case .purchase(let id):
            let product = try self.product(id)
            if product.kind == .autoRenewable {
                try self.subscribe(customer, product, offer: nil, type: "SUBSCRIBED")
            } else {
                let transaction = try self.buy(customer, product, ownership: "PURCHASED", original: nil)
                self.notify("ONE_TIME_CHARGE", nil, customer: customer, product: product, transaction: transaction)
            }
        case .offerRedeemed(let id, let offerType, let offerIdentifier):
            let product = try self.product(id)
            guard product.kind == .autoRenewable, let group = product.subscriptionGroup else {
                throw self.impossible("an offer is redeemed for an auto-renewable subscription; \(id) is not one")
            }
            if var subscription = self.subscriptions[customer]?[group], self.isLive(subscription) {
                subscription.pendingOffer = (offerType, offerIdentifier)
                self.subscriptions[customer, default: [:]][group] = subscription
                self.notifySubscription("OFFER_REDEEMED", nil, customer: customer, group: group)
            } else {
                try self.subscribe(customer, product, offer: (offerType, offerIdentifier), type: "OFFER_REDEEMED")
            }
        case .renew:
            let (group, subscription) = try self.subscription(customer, event.subscriptionGroup)
            guard !subscription.expired else { throw self.impossible("the subscription expired; a new one is a purchase") }
            guard subscription.autoRenew else { throw self.impossible("auto-renew is off; it cannot renew") }
            guard !subscription.inBillingRetry else {
                throw self.impossible("billing is failing; the renewal that succeeds is billing_recovery")
            }
            try self.renew(customer, group, reason: "RENEWAL")
            self.notifySubscription("DID_RENEW", nil, customer: customer, group: group)
            self.followMembers(customer, group, type: "DID_RENEW", subtype: nil)
        case .billingFailure(let grace):
            let (group, found) = try self.subscription(customer, event.subscriptionGroup)
            var subscription = found
            guard !subscription.expired, subscription.autoRenew, !subscription.inBillingRetry else {
                throw self.impossible("billing fails only for a subscription that renews and is not already failing")
            }
            subscription.inBillingRetry = true
            subscription.graceUntil = try grace.map { period throws(ScenarioError) in
                guard let until = period.after(subscription.expires) else { throw self.impossible("grace_period is not a date") }
                return until
            }
            self.subscriptions[customer, default: [:]][group] = subscription
            self.notifySubscription("DID_FAIL_TO_RENEW", grace == nil ? nil : "GRACE_PERIOD", customer: customer, group: group)
        case .gracePeriodExpired:
            let (group, subscription) = try self.subscription(customer, event.subscriptionGroup)
            guard subscription.inBillingRetry, let until = subscription.graceUntil else {
                throw self.impossible("no grace period is running")
            }
            guard date >= until else {
                throw self.impossible("the grace period lasts until \(Self.text(until)); it cannot expire before")
            }
            self.notifySubscription("GRACE_PERIOD_EXPIRED", nil, customer: customer, group: group)
        case .billingRecovery:
            let (group, subscription) = try self.subscription(customer, event.subscriptionGroup)
            guard subscription.inBillingRetry, !subscription.expired else { throw self.impossible("billing is not failing") }
            try self.renew(customer, group, reason: "RENEWAL")
            self.notifySubscription("DID_RENEW", "BILLING_RECOVERY", customer: customer, group: group)
            self.followMembers(customer, group, type: "DID_RENEW", subtype: "BILLING_RECOVERY")
        case .expire(let reason):
            let (group, found) = try self.subscription(customer, event.subscriptionGroup)
            var subscription = found
            guard !subscription.expired else { throw self.impossible("the subscription has already expired") }
            guard date >= subscription.expires else {
                throw self.impossible("the subscription runs until \(Self.text(subscription.expires)); place the expiry at or after it")
            }
            subscription.expired = true
            subscription.autoRenew = false
            subscription.inBillingRetry = false
            subscription.graceUntil = nil
            subscription.expirationIntent = reason.intent
            self.subscriptions[customer, default: [:]][group] = subscription
            self.notifySubscription("EXPIRED", reason.subtype, customer: customer, group: group)
            for member in subscription.members {
                guard var share = self.subscriptions[member]?[group], !share.expired else { continue }
                share.expired = true
                share.autoRenew = false
                share.expirationIntent = reason.intent
                self.subscriptions[member, default: [:]][group] = share
                self.notifySubscription("EXPIRED", reason.subtype, customer: member, group: group)
            }
        case .autoRenew(let enabled):
            let (group, found) = try self.subscription(customer, event.subscriptionGroup)
            var subscription = found
            guard !subscription.expired else { throw self.impossible("the subscription has expired; a new one is a purchase") }
            guard subscription.autoRenew != enabled else { throw self.impossible("auto-renew is already \(enabled ? "on" : "off")") }
            subscription.autoRenew = enabled
            self.subscriptions[customer, default: [:]][group] = subscription
            self.notifySubscription(
                "DID_CHANGE_RENEWAL_STATUS", enabled ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED", customer: customer, group: group)
        case .upgrade(let id), .downgrade(let id):
            let isUpgrade: Bool
            if case .upgrade = event.kind { isUpgrade = true } else { isUpgrade = false }
            let target = try self.product(id)
            guard let group = target.subscriptionGroup else { throw self.impossible("\(id) is not an auto-renewable subscription") }
            guard let subscription = self.subscriptions[customer]?[group], self.isLive(subscription) else {
                throw self.impossible("no active subscription in \(group) to change")
            }
            let current = try self.product(subscription.productID)
            guard isUpgrade ? target.level < current.level : target.level > current.level else {
                throw self.impossible(
                    "\(id) (level \(target.level)) is not \(isUpgrade ? "higher" : "lower") than \(current.productID) (level \(current.level)); level 1 is the highest")
            }
            if isUpgrade {
                try self.upgrade(customer, group, to: target)
            } else {
                self.subscriptions[customer, default: [:]][group]?.renewsTo = id
            }
            self.notifySubscription("DID_CHANGE_RENEWAL_PREF", isUpgrade ? "UPGRADE" : "DOWNGRADE", customer: customer, group: group)
        case .refund(let id, let reason):
            let product = try self.product(id)
            let transactionID = try self.latestPurchase(customer, product)
            guard var stored = self.transactions[transactionID], stored.fields["revocationDate"] == nil else {
                throw self.impossible("the latest purchase of \(id) is already refunded")
            }
            stored.fields["revocationDate"] = self.timestamp(self.date)
            stored.fields["revocationReason"] = .number(JSONNumber(reason))
            self.store(stored)
            if let group = product.subscriptionGroup {
                self.subscriptions[customer, default: [:]][group]?.autoRenew = false
                self.notifySubscription("REFUND", nil, customer: customer, group: group)
                self.revokeMembers(customer, group: group, productID: nil)
            } else {
                self.notify("REFUND", nil, customer: customer, product: product, transaction: transactionID)
                self.revokeMembers(customer, group: nil, productID: id)
            }
        case .refundDeclined(let id), .refundReversed(let id), .consumptionRequest(let id):
            let product = try self.product(id)
            let transactionID = try self.latestPurchase(customer, product)
            var type = "REFUND_DECLINED"
            var extra: [String: JSONValue] = [:]
            if case .refundReversed = event.kind {
                type = "REFUND_REVERSED"
                guard var stored = self.transactions[transactionID], stored.fields["revocationDate"] != nil else {
                    throw self.impossible("the latest purchase of \(id) is not refunded; there is nothing to reverse")
                }
                stored.fields["revocationDate"] = nil
                stored.fields["revocationReason"] = nil
                self.store(stored)
            } else if case .consumptionRequest = event.kind {
                type = "CONSUMPTION_REQUEST"
                extra["consumptionRequestReason"] = .string("UNINTENDED_PURCHASE")
            }
            if let group = product.subscriptionGroup {
                self.notifySubscription(type, nil, customer: customer, group: group, extraData: extra)
            } else {
                self.notify(type, nil, customer: customer, product: product, transaction: transactionID, extraData: extra)
            }
        case .familyShare(let id, let member):
            try self.share(id, from: customer, with: member)
        case .familyRevoke(let id, let member):
            let product = try self.product(id)
            let shareID: String?
            if let group = product.subscriptionGroup {
                shareID = self.subscriptions[member]?[group].flatMap { $0.sharedBy == customer ? $0.latestTransactionID : nil }
            } else {
                shareID = self.shares[member]?[id]
            }
            guard let shareID, var stored = self.transactions[shareID], stored.fields["revocationDate"] == nil else {
                throw self.impossible("\(member) holds no share of \(id) from \(customer)")
            }
            stored.fields["revocationDate"] = self.timestamp(self.date)
            self.store(stored)
            if let group = product.subscriptionGroup {
                self.subscriptions[customer, default: [:]][group]?.members.removeAll { $0 == member }
                self.subscriptions[member, default: [:]][group]?.autoRenew = false
                self.notifySubscription("REVOKE", nil, customer: member, group: group)
            } else {
                self.notify("REVOKE", nil, customer: member, product: product, transaction: shareID)
            }
        case .extend(let period):
            let (group, found) = try self.subscription(customer, event.subscriptionGroup)
            var subscription = found
            guard self.isLive(subscription), !subscription.inBillingRetry else {
                throw self.impossible("only an active subscription's renewal date is extended")
            }
            guard let later = period.after(subscription.expires) else { throw self.impossible("the extension is not a date") }
            subscription.expires = later
            self.subscriptions[customer, default: [:]][group] = subscription
            if var stored = self.transactions[subscription.latestTransactionID] {
                stored.fields["expiresDate"] = self.timestamp(later)
                self.store(stored)
            }
            self.notifySubscription("RENEWAL_EXTENDED", nil, customer: customer, group: group)
        }
        let transactions = self.changed.compactMap { self.transactions[$0] }
        return ScenarioStep(
            date: date, eventIndex: index, transactions: transactions, renewalInfo: self.renewals,
            notifications: self.notifications)
    }
}
