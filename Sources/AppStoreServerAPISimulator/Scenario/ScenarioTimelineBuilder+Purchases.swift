import AppStoreJWS
import _ReceiptKitShared
import struct Foundation.Date

extension ScenarioTimelineBuilder {
    static func text(_ date: Date) -> String { RFC3339Format.string(date) ?? "\(date.timeIntervalSince1970)" }

    /// Whether the subscription still gives access, or is being billed, at the step's moment (not expired, not
    /// refunded or revoked).
    func isLive(_ subscription: ScenarioSubscription) -> Bool {
        !subscription.expired && self.transactions[subscription.latestTransactionID]?.fields["revocationDate"] == nil
    }

    /// The customer's subscription in `group`, or its only one when no group is named.
    func subscription(_ customer: String, _ group: String?) throws(ScenarioError) -> (String, ScenarioSubscription) {
        let owned = self.subscriptions[customer] ?? [:]
        if let group {
            guard let subscription = owned[group] else { throw self.impossible("no subscription in \(group)") }
            return (group, subscription)
        }
        guard let only = owned.first, owned.count == 1 else {
            throw self.impossible(owned.isEmpty ? "no subscription" : "subscriptions in several groups: name one with group")
        }
        return (only.key, only.value)
    }

    /// The latest transaction of the customer's `product` (its group's, for a subscription).
    func latestPurchase(_ customer: String, _ product: ScenarioProduct) throws(ScenarioError) -> String {
        if let group = product.subscriptionGroup {
            guard let subscription = self.subscriptions[customer]?[group], subscription.sharedBy == nil else {
                throw self.impossible("no subscription in \(group) bought by \(customer)")
            }
            return subscription.latestTransactionID
        }
        guard let id = self.purchases[customer]?[product.productID] else {
            throw self.impossible("\(customer) never bought \(product.productID)")
        }
        return id
    }

    mutating func store(_ transaction: ScenarioStep.Transaction) {
        guard let id = transaction.fields["transactionId"]?.stringValue else { return }
        self.transactions[id] = transaction
        if !self.changed.contains(id) { self.changed.append(id) }
    }

    /// A new transaction's fields.
    mutating func transaction(
        _ customer: String, _ product: ScenarioProduct, original: (id: String, date: Date)?, ownership: String,
        expires: Date?, reason: String, offer: (type: Int64, identifier: String?)?
    ) -> [String: JSONValue] {
        let id = self.identifier()
        var fields: [String: JSONValue] = [
            "transactionId": .string(id),
            "originalTransactionId": .string(original?.id ?? id),
            "bundleId": .string(product.bundleIdentifier),
            "productId": .string(product.productID),
            "purchaseDate": self.timestamp(self.date),
            "originalPurchaseDate": self.timestamp(original?.date ?? self.date),
            "quantity": .number(JSONNumber(1)),
            "type": .string(product.kind.transactionType),
            "inAppOwnershipType": .string(ownership),
            "signedDate": self.timestamp(self.date),
            "environment": .string(self.environment),
            "transactionReason": .string(reason),
            "storefront": .string(self.customer(customer)?.storefront ?? "USA"),
            "storefrontId": .string("143441"),
            "price": .number(JSONNumber(offer == nil ? product.price : product.price / 2)),
            "currency": .string(product.currency),
        ]
        if let expires { fields["expiresDate"] = self.timestamp(expires) }
        if let group = product.subscriptionGroup {
            fields["subscriptionGroupIdentifier"] = .string(group)
            fields["webOrderLineItemId"] = .string(self.identifier())
        }
        if ownership == "PURCHASED", let token = self.customer(customer)?.appAccountToken {
            fields["appAccountToken"] = .string(token)
        }
        if let offer {
            fields["offerType"] = .number(JSONNumber(offer.type))
            if let identifier = offer.identifier { fields["offerIdentifier"] = .string(identifier) }
        }
        return fields
    }

    /// A purchase of anything but an auto-renewable subscription; returns its transaction id.
    mutating func buy(
        _ customer: String, _ product: ScenarioProduct, ownership: String, original: (id: String, date: Date)?
    ) throws(ScenarioError) -> String {
        if product.kind == .nonConsumable, ownership == "PURCHASED", let owned = self.purchases[customer]?[product.productID],
            self.transactions[owned]?.fields["revocationDate"] == nil
        {
            throw self.impossible("\(customer) already owns \(product.productID); a non-consumable is bought once")
        }
        let fields = self.transaction(
            customer, product, original: original, ownership: ownership, expires: nil, reason: "PURCHASE", offer: nil)
        self.store(ScenarioStep.Transaction(fields: fields, customer: customer))
        let id = fields["transactionId"]?.stringValue ?? ""
        if ownership == "PURCHASED" {
            self.purchases[customer, default: [:]][product.productID] = id
        } else {
            self.shares[customer, default: [:]][product.productID] = id
        }
        return id
    }

    /// A first purchase or a resubscription of a subscription, optionally with an offer.
    mutating func subscribe(
        _ customer: String, _ product: ScenarioProduct, offer: (type: Int64, identifier: String?)?, type: String
    ) throws(ScenarioError) {
        guard let group = product.subscriptionGroup, let period = product.period else {
            throw self.impossible("\(product.productID) is not an auto-renewable subscription")
        }
        let previous = self.subscriptions[customer]?[group]
        if let previous, self.isLive(previous) {
            throw self.impossible("\(customer) is already subscribed in \(group); use upgrade, downgrade or an offer")
        }
        if let previous, previous.sharedBy != nil, !previous.expired,
            self.transactions[previous.latestTransactionID]?.fields["revocationDate"] == nil
        {
            throw self.impossible("\(customer) has \(group) through Family Sharing")
        }
        guard let expires = period.after(self.date) else { throw self.impossible("the period is not a date") }
        let original = previous.flatMap { $0.sharedBy == nil ? ($0.originalTransactionID, $0.originalPurchaseDate) : nil }
        let fields = self.transaction(
            customer, product, original: original, ownership: "PURCHASED", expires: expires, reason: "PURCHASE",
            offer: offer)
        let id = fields["transactionId"]?.stringValue ?? ""
        self.store(ScenarioStep.Transaction(fields: fields, customer: customer))
        self.subscriptions[customer, default: [:]][group] = ScenarioSubscription(
            originalTransactionID: original?.0 ?? id, originalPurchaseDate: original?.1 ?? self.date,
            productID: product.productID, renewsTo: product.productID, expires: expires, latestTransactionID: id,
            recentStart: self.date)
        self.notifySubscription(type, original == nil ? "INITIAL_BUY" : "RESUBSCRIBE", customer: customer, group: group)
    }

    /// A renewal (into the product it renews to, with a pending offer) from the step's moment.
    mutating func renew(_ customer: String, _ group: String, reason: String) throws(ScenarioError) {
        guard var subscription = self.subscriptions[customer]?[group] else { throw self.impossible("no subscription in \(group)") }
        let product = try self.product(subscription.renewsTo)
        guard let period = product.period, let expires = period.after(self.date) else {
            throw self.impossible("\(product.productID) has no period")
        }
        let offer = subscription.pendingOffer
        let fields = self.transaction(
            customer, product, original: (subscription.originalTransactionID, subscription.originalPurchaseDate),
            ownership: subscription.sharedBy == nil ? "PURCHASED" : "FAMILY_SHARED", expires: expires, reason: reason,
            offer: offer.map { ($0.type, $0.identifier) })
        self.store(ScenarioStep.Transaction(fields: fields, customer: customer))
        subscription.latestTransactionID = fields["transactionId"]?.stringValue ?? ""
        subscription.productID = product.productID
        subscription.expires = expires
        subscription.inBillingRetry = false
        subscription.graceUntil = nil
        subscription.pendingOffer = nil
        self.subscriptions[customer, default: [:]][group] = subscription
    }

    /// An upgrade: a new transaction of the higher product at once; the one it replaces marked `isUpgraded`.
    mutating func upgrade(_ customer: String, _ group: String, to product: ScenarioProduct) throws(ScenarioError) {
        guard var subscription = self.subscriptions[customer]?[group] else { throw self.impossible("no subscription in \(group)") }
        guard let period = product.period, let expires = period.after(self.date) else {
            throw self.impossible("\(product.productID) has no period")
        }
        if var replaced = self.transactions[subscription.latestTransactionID] {
            replaced.fields["isUpgraded"] = .bool(true)
            self.store(replaced)
        }
        let fields = self.transaction(
            customer, product, original: (subscription.originalTransactionID, subscription.originalPurchaseDate),
            ownership: "PURCHASED", expires: expires, reason: "PURCHASE", offer: nil)
        self.store(ScenarioStep.Transaction(fields: fields, customer: customer))
        subscription.latestTransactionID = fields["transactionId"]?.stringValue ?? ""
        subscription.productID = product.productID
        subscription.renewsTo = product.productID
        subscription.expires = expires
        self.subscriptions[customer, default: [:]][group] = subscription
    }

    /// Family Sharing: the member's own transaction of what the customer bought.
    mutating func share(_ id: String, from customer: String, with member: String) throws(ScenarioError) {
        let product = try self.product(id)
        switch product.kind {
        case .consumable, .nonRenewing:
            throw self.impossible("\(id) is \(product.kind.rawValue): only non-consumables and auto-renewable subscriptions are shared")
        case .nonConsumable:
            let bought = try self.latestPurchase(customer, product)
            guard self.transactions[bought]?.fields["revocationDate"] == nil else { throw self.impossible("\(id) was refunded") }
            if let held = self.shares[member]?[id], self.transactions[held]?.fields["revocationDate"] == nil {
                throw self.impossible("\(member) already has \(id) through Family Sharing")
            }
            let transaction = try self.buy(member, product, ownership: "FAMILY_SHARED", original: nil)
            self.notify("ONE_TIME_CHARGE", nil, customer: member, product: product, transaction: transaction)
        case .autoRenewable:
            guard let group = product.subscriptionGroup, var purchaser = self.subscriptions[customer]?[group],
                purchaser.sharedBy == nil, self.isLive(purchaser)
            else { throw self.impossible("\(customer) has no active subscription in \(product.subscriptionGroup ?? "")") }
            if let held = self.subscriptions[member]?[group], self.isLive(held) {
                throw self.impossible("\(member) already has a subscription in \(group)")
            }
            let current = try self.product(purchaser.productID)
            let fields = self.transaction(
                member, current, original: nil, ownership: "FAMILY_SHARED", expires: purchaser.expires,
                reason: "PURCHASE", offer: nil)
            let transactionID = fields["transactionId"]?.stringValue ?? ""
            self.store(ScenarioStep.Transaction(fields: fields, customer: member))
            var share = ScenarioSubscription(
                originalTransactionID: transactionID, originalPurchaseDate: self.date, productID: current.productID,
                renewsTo: purchaser.renewsTo, expires: purchaser.expires, latestTransactionID: transactionID,
                recentStart: self.date)
            share.sharedBy = customer
            self.subscriptions[member, default: [:]][group] = share
            purchaser.members.append(member)
            self.subscriptions[customer, default: [:]][group] = purchaser
            self.notifySubscription("SUBSCRIBED", "INITIAL_BUY", customer: member, group: group)
        }
    }

    /// The purchaser renewed: each member's share renews with it, and is told so.
    mutating func followMembers(_ customer: String, _ group: String, type: String, subtype: String?) {
        guard let purchaser = self.subscriptions[customer]?[group] else { return }
        for member in purchaser.members {
            guard let share = self.subscriptions[member]?[group], share.sharedBy == customer, self.isLive(share) else { continue }
            var renewed = share
            renewed.renewsTo = purchaser.renewsTo
            self.subscriptions[member, default: [:]][group] = renewed
            guard (try? self.renew(member, group, reason: "RENEWAL")) != nil else { continue }
            self.notifySubscription(type, subtype, customer: member, group: group)
        }
    }

    /// The purchaser was refunded: each member's share is revoked, and each member told so.
    mutating func revokeMembers(_ customer: String, group: String?, productID: String?) {
        if let group {
            guard let purchaser = self.subscriptions[customer]?[group] else { return }
            for member in purchaser.members {
                guard let share = self.subscriptions[member]?[group], var stored = self.transactions[share.latestTransactionID],
                    stored.fields["revocationDate"] == nil
                else { continue }
                stored.fields["revocationDate"] = self.timestamp(self.date)
                self.store(stored)
                self.subscriptions[member, default: [:]][group]?.autoRenew = false
                self.notifySubscription("REVOKE", nil, customer: member, group: group)
            }
        } else if let productID, let product = self.scenario.product(productID) {
            for (member, held) in self.shares.sorted(by: { $0.key < $1.key }) {
                guard let id = held[productID], var stored = self.transactions[id], stored.fields["revocationDate"] == nil
                else { continue }
                stored.fields["revocationDate"] = self.timestamp(self.date)
                self.store(stored)
                self.notify("REVOKE", nil, customer: member, product: product, transaction: id)
            }
        }
    }
}
