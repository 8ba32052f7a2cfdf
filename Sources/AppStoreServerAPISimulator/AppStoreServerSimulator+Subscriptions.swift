import ReceiptKitTesting
import AppStoreJWS
import Hummingbird
import NIOConcurrencyHelpers

extension AppStoreServerSimulator {
    /// The latest transaction of each auto-renewable subscription of the customer, with its status and renewal
    /// info, grouped by subscription group.
    struct SubscriptionState {
        var group: String
        var originalTransactionID: String
        var status: Int64
        var transaction: [String: JSONValue]
        var renewalInfo: [String: JSONValue]
    }

    /// Get All Subscription Statuses: `data[].lastTransactions[]` with `status`, `originalTransactionId`,
    /// `signedTransactionInfo` and `signedRenewalInfo`, optionally only the `status` values asked for.
    func statuses(_ id: String?, _ query: Parameters, _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        var wanted: Set<Int64> = []
        for text in query.getAll("status") {
            guard let status = Int64(text), (1...5).contains(status) else { return .error(.invalidStatus) }
            wanted.insert(status)
        }
        let nowMilliseconds = AppStoreTimestamp(self.now()).number.int64 ?? 0
        let subscriptions: [SubscriptionState]? = self.store.state.withLockedValue { state in
            guard let stored = state.transactions[id], self.visible(stored, to: caller) else { return nil }
            var latest: [String: SimulatedAppStore.StoredTransaction] = [:]
            for transaction in state.transactions.values
            where transaction.customer == stored.customer && self.visible(transaction, to: caller)
                && transaction.fields.enumeration("type") == TransactionType.autoRenewableSubscription
            {
                guard let original = transaction.fields.string("originalTransactionId") else { continue }
                if let current = latest[original], Self.isLater(current, than: transaction) { continue }
                latest[original] = transaction
            }
            return latest.map { original, transaction in
                let renewal =
                    state.renewalInfo[original]
                    ?? JWSSamplePayload.renewalInfo(
                        productID: transaction.fields.string("productId") ?? "",
                        originalTransactionID: original, environment: self.environment, signedDate: self.now())
                return SubscriptionState(
                    group: transaction.fields.string("subscriptionGroupIdentifier") ?? "",
                    originalTransactionID: original,
                    status: state.statusOverrides[original]
                        ?? Self.status(transaction.fields, renewal, nowMilliseconds: nowMilliseconds),
                    transaction: transaction.fields, renewalInfo: renewal)
            }
        }
        guard let subscriptions else { return .error(.transactionIdNotFound) }
        var groups: [String: [JSONValue]] = [:]
        for subscription in subscriptions.sorted(by: { $0.originalTransactionID < $1.originalTransactionID })
        where wanted.isEmpty || wanted.contains(subscription.status) {
            guard let transaction = self.sign(subscription.transaction),
                let renewal = self.sign(subscription.renewalInfo)
            else { return .error(.generalInternal) }
            groups[subscription.group, default: []].append(
                .object([
                    "status": .number(JSONNumber(subscription.status)),
                    "originalTransactionId": .string(subscription.originalTransactionID),
                    "signedTransactionInfo": .string(transaction),
                    "signedRenewalInfo": .string(renewal),
                ]))
        }
        var members = self.appMembers(caller)
        members["data"] = .array(
            groups.keys.sorted().map { group in
                .object([
                    "subscriptionGroupIdentifier": .string(group), "lastTransactions": .array(groups[group] ?? []),
                ])
            })
        return .json(members)
    }

    /// Whether `transaction` is the later of two of one subscription: purchased later, or changed later.
    static func isLater(
        _ transaction: SimulatedAppStore.StoredTransaction, than other: SimulatedAppStore.StoredTransaction
    ) -> Bool {
        let mine = transaction.fields.integer("purchaseDate") ?? 0
        let theirs = other.fields.integer("purchaseDate") ?? 0
        return mine != theirs ? mine > theirs : transaction.sequence > other.sequence
    }

    /// Apple's subscription status: 5 revoked, 1 active, 4 in the grace period, 3 in billing retry, 2 expired.
    static func status(
        _ transaction: [String: JSONValue], _ renewal: [String: JSONValue], nowMilliseconds: Int64
    ) -> Int64 {
        if transaction["revocationDate"] != nil { return 5 }
        if let expires = transaction.integer("expiresDate"), expires > nowMilliseconds { return 1 }
        if renewal["isInBillingRetryPeriod"]?.boolValue == true {
            if let grace = renewal.integer("gracePeriodExpiresDate"), grace > nowMilliseconds { return 4 }
            return 3
        }
        return 2
    }

    /// Extend a Subscription Renewal Date: moves the active subscription's `expiresDate` (and the renewal info's
    /// `renewalDate`) `extendByDays` later.
    func extendRenewalDate(_ id: String?, _ body: [UInt8], _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidOriginalTransactionId) }
        guard let request = (try? JSONValue(jsonEncoded: body))?.objectValue else { return .error(.generalBadRequest) }
        guard let days = request.integer("extendByDays"), (1...90).contains(days) else {
            return .error(.invalidExtendByDays)
        }
        guard let reason = request.integer("extendReasonCode"), (0...3).contains(reason) else {
            return .error(.invalidExtendReasonCode)
        }
        guard let requestID = request.string("requestIdentifier"), (1...128).contains(requestID.count) else {
            return .error(.invalidRequestIdentifier)
        }
        let nowMilliseconds = AppStoreTimestamp(self.now()).number.int64 ?? 0
        return self.store.state.withLockedValue { state -> SimulatorAnswer in
            guard let stored = state.transactions[id], self.visible(stored, to: caller) else {
                return .error(.originalTransactionIdNotFound)
            }
            guard stored.fields.string("originalTransactionId") == id else {
                return .error(.invalidOriginalTransactionId)
            }
            var latest: (key: String, value: SimulatedAppStore.StoredTransaction)?
            for (key, transaction) in state.transactions
            where transaction.fields.string("originalTransactionId") == id {
                if let current = latest, Self.isLater(current.value, than: transaction) { continue }
                latest = (key, transaction)
            }
            guard let found = latest, found.value.fields["revocationDate"] == nil,
                let expires = found.value.fields.integer("expiresDate"), expires > nowMilliseconds
            else { return .error(.subscriptionExtensionIneligible) }
            let (extended, overflow) = expires.addingReportingOverflow(days * 86_400_000)
            guard !overflow else { return .error(.subscriptionExtensionIneligible) }
            var transaction = found.value
            transaction.fields["expiresDate"] = .number(JSONNumber(extended))
            transaction.sequence = state.nextSequence()
            state.transactions[found.key] = transaction
            state.renewalInfo[id]?["renewalDate"] = .number(JSONNumber(extended))
            return .json([
                "originalTransactionId": .string(id),
                "webOrderLineItemId": transaction.fields["webOrderLineItemId"] ?? .null,
                "success": .bool(true),
                "effectiveDate": .number(JSONNumber(extended)),
            ])
        }
    }
}
