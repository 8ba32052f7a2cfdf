import AppStoreJWS
import AppStoreServerAPI
import struct Foundation.UUID
import NIOConcurrencyHelpers

extension AppStoreServerSimulator {
    /// Get Transaction Info: `{"signedTransactionInfo":…}`.
    func transactionInfo(_ id: String?, _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        let fields = self.store.state.withLockedValue { state in
            state.transactions[id].flatMap { self.visible($0, to: caller) ? $0.fields : nil }
        }
        guard let fields else { return .error(.transactionIdNotFound) }
        guard let jws = self.sign(fields) else { return .error(.generalInternal) }
        return .json(["signedTransactionInfo": .string(jws)])
    }

    /// Get App Transaction Info: `{"signedAppTransactionInfo":…}` for the customer of a transaction of the caller's
    /// app, or of the app transaction id; 4040010 when no such transaction, 4040019 when the customer has no app
    /// transaction for the app in this environment.
    func appTransactionInfo(_ id: String?, _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        let environment = self.environment.rawValue
        func ours(_ fields: [String: JSONValue]) -> Bool {
            fields.string("bundleId") == caller.bundleIdentifier && fields.string("receiptType") == environment
        }
        let found = self.store.state.withLockedValue { state -> [String: JSONValue]?? in
            if let stored = state.transactions[id], self.visible(stored, to: caller) {
                return .some(state.appTransactions[stored.customer].flatMap { ours($0) ? $0 : nil })
            }
            if let byID = state.appTransactions.values.first(where: { $0.string("appTransactionId") == id && ours($0) }) {
                return .some(byID)
            }
            return .none
        }
        guard let customer = found else { return .error(.transactionIdNotFound) }
        guard let fields = customer else { return .error(.appTransactionDoesNotExist) }
        guard let jws = self.sign(fields) else { return .error(.generalInternal) }
        return .json(["signedAppTransactionInfo": .string(jws)])
    }

    /// Look Up Order ID: status 0 and the order's transactions, or status 1 (invalid) and none.
    func lookUpOrder(_ orderID: String?, _ caller: SimulatedCaller) -> SimulatorAnswer {
        let payloads = self.store.state.withLockedValue { state -> [[String: JSONValue]] in
            guard let orderID, let ids = state.orders[orderID] else { return [] }
            return ids.compactMap { state.transactions[$0] }.filter { self.visible($0, to: caller) }.map(\.fields)
        }
        guard let signed = self.signAll(payloads) else { return .error(.generalInternal) }
        return .json([
            "status": .number(JSONNumber(payloads.isEmpty ? 1 : 0)),
            "signedTransactions": .array(signed),
        ])
    }

    /// Send Consumption Information (V2): 202 with no body once the body — `"customerConsented": true`, one of Apple's
    /// `deliveryStatus` names, a boolean `sampleContentProvided`, and when present a `consumptionPercentage` of 0 to
    /// 100,000 and one of Apple's `refundPreference` names — is kept for the test to read.
    func consumption(_ id: String?, _ body: [UInt8], _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        guard let request = (try? JSONValue(jsonEncoded: body))?.objectValue else { return .error(.generalBadRequest) }
        guard request["customerConsented"]?.boolValue == true else { return .error(.invalidCustomerConsented) }
        let deliveryStatuses: [ConsumptionDeliveryStatus] = [
            .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
        ]
        guard let delivery = request.string("deliveryStatus"),
            deliveryStatuses.contains(ConsumptionDeliveryStatus(rawValue: delivery))
        else { return .error(.invalidDeliveryStatus) }
        guard request["sampleContentProvided"]?.boolValue != nil else { return .error(.invalidSampleContentProvided) }
        if let percentage = request["consumptionPercentage"] {
            guard case .number(let number) = percentage, let value = number.int64, (0...100_000).contains(value) else {
                return .error(.generalBadRequest)
            }
        }
        if let preference = request["refundPreference"] {
            let preferences: [RefundPreference] = [.decline, .grantFull, .grantProrated]
            guard let name = preference.stringValue, preferences.contains(RefundPreference(rawValue: name)) else {
                return .error(.generalBadRequest)
            }
        }
        return self.keepConsumption(request, of: id, caller)
    }

    /// Send Consumption Information V1: 202 with no body once the body (a JSON object with
    /// `"customerConsented": true`) is kept for the test to read.
    func consumptionV1(_ id: String?, _ body: [UInt8], _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidTransactionId) }
        guard let request = (try? JSONValue(jsonEncoded: body))?.objectValue else { return .error(.generalBadRequest) }
        guard request["customerConsented"]?.boolValue == true else { return .error(.invalidCustomerConsented) }
        return self.keepConsumption(request, of: id, caller)
    }

    /// Keeps `request` as the consumption information of the caller's transaction `id`: 202, or 404 when the
    /// caller's app has no such transaction.
    private func keepConsumption(
        _ request: [String: JSONValue], of id: String, _ caller: SimulatedCaller
    ) -> SimulatorAnswer {
        let found = self.store.state.withLockedValue { state in
            guard self.visible(state.transactions[id], to: caller) else { return false }
            state.consumption[id] = request
            return true
        }
        return found ? .empty(202) : .error(.transactionIdNotFound)
    }

    /// Set App Account Token: sets `appAccountToken` (a UUID, or `""` to clear it) on every transaction of the
    /// original transaction; 200 with no body.
    func setAppAccountToken(_ id: String?, _ body: [UInt8], _ caller: SimulatedCaller) -> SimulatorAnswer {
        guard let id, Self.isValidIdentifier(id) else { return .error(.invalidOriginalTransactionId) }
        guard let request = (try? JSONValue(jsonEncoded: body))?.objectValue,
            let token = request.string("appAccountToken")
        else { return .error(.invalidAppAccountTokenUUID) }
        guard token.isEmpty || UUID(uuidString: token) != nil else { return .error(.invalidAppAccountTokenUUID) }
        return self.store.state.withLockedValue { state -> SimulatorAnswer in
            guard let stored = state.transactions[id], self.visible(stored, to: caller) else {
                return .error(.transactionIdNotFound)
            }
            guard stored.fields.string("originalTransactionId") == id else {
                return .error(.transactionIdNotOriginalTransactionId)
            }
            guard stored.fields.enumeration("inAppOwnershipType") != InAppOwnershipType.familyShared else {
                return .error(.familyTransactionNotSupported)
            }
            for (key, transaction) in state.transactions
            where transaction.fields.string("originalTransactionId") == id {
                var changed = transaction
                changed.fields["appAccountToken"] = token.isEmpty ? nil : .string(token.lowercased())
                changed.sequence = state.nextSequence()
                state.transactions[key] = changed
            }
            return .empty(200)
        }
    }
}
