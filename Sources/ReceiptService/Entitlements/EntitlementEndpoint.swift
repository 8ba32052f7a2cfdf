import AppStoreJWS
import AppStorePKI
import struct Foundation.Date
import ReceiptLedger
import ReceiptKit

/// `GET /v1/entitlements`: what a customer is entitled to, from everything the ledger knows (receipts, server
/// notifications, the App Store Server API), behind the operator's admin tokens.
///
/// The customer is the one a transaction id, an original transaction id or an app account token names
/// (``Ledger/customer(environment:bundleIdentifier:transactionIdentifier:)``); for an app whose data the App Store
/// Server API refreshes, data that is due is refreshed first, as for the mirror. Items and states follow
/// ``EntitlementRules``; entitlement names come from the `entitlements` setting.
struct EntitlementEndpoint: Sendable {
    let ledger: any Ledger
    let tokens: AdminTokens
    /// Entitlement names by bundle id and product id.
    let names: [String: [String: [String]]]
    let now: @Sendable () -> Date
    /// Refreshes a query's ids from the App Store Server API when due (the mirror's); whether the ledger was written.
    let refresh: @Sendable (LedgerQuery, Bool) async -> Bool

    /// The answer to a request with `authorization` and `query`.
    func answer(authorization: String?, query: [String: [String]]) async -> EntitlementAnswer {
        guard self.tokens.admits(authorization) else {
            return .refused(EntitlementRefusal(.unauthorized, .adminTokenRefused, "an admin token is required (Authorization: Bearer …)"))
        }
        do throws(EntitlementRefusal) {
            let request = try EntitlementQuery(query: query)
            return .answered(try await self.entitlements(request))
        } catch {
            return .refused(error)
        }
    }

    /// The answer's members for `request`.
    func entitlements(_ request: EntitlementQuery) async throws(EntitlementRefusal) -> [String: JSONValue] {
        let found: [String: JSONValue]?
        do throws(LedgerError) {
            found = try await self.read(request)
        } catch {
            throw error.isRetryable
                ? EntitlementRefusal(.unavailable, .ledgerUnavailable, "the ledger is unavailable; try again")
                : EntitlementRefusal(.failed, .ledgerError, "the ledger failed to answer")
        }
        guard let found else {
            throw EntitlementRefusal(.notFound, .customerNotFound, Self.unknownCustomer(request))
        }
        return found
    }

    /// The answer's members, read from the ledger (refreshed first when due); `nil` for a customer it does not know.
    private func read(_ request: EntitlementQuery) async throws(LedgerError) -> [String: JSONValue]? {
        guard let facts = try await self.facts(request) else { return nil }
        var active = Set<String>()
        for item in facts.items where item.state.grantsAccess { active.formUnion(item.entitlements) }
        return [
            "bundle_id": .string(request.bundleIdentifier),
            "environment": .string(request.environment.rawValue),
            "at_ms": .number(JSONNumber(facts.moment.epochMilliseconds)),
            "original_transaction_ids": .array(facts.customer.originalTransactionIdentifiers.map(JSONValue.string)),
            "active_entitlements": .array(active.sorted().map(JSONValue.string)),
            "items": .array(facts.items.map(\.json)),
        ]
    }

    /// What the ledger knows of the customer `request` names, at its moment (refreshed first when due); `nil` for
    /// a customer it does not know.
    func facts(_ request: EntitlementQuery) async throws(LedgerError) -> CustomerFacts? {
        let moment = request.moment ?? self.now()
        guard var customer = try await self.customer(request) else { return nil }
        let asked = LedgerQuery(
            environment: request.environment, bundleIdentifier: request.bundleIdentifier,
            originalTransactionIdentifiers: customer.originalTransactionIdentifiers)
        if await self.refresh(asked, false), let refreshed = try await self.customer(request) {
            customer = refreshed
        }
        let snapshot = try await self.ledger.snapshot(
            matching: LedgerQuery(
                environment: request.environment, bundleIdentifier: request.bundleIdentifier,
                originalTransactionIdentifiers: customer.originalTransactionIdentifiers))
        // The newest receipt of the customer, and each original transaction's newest receipt: a purchase of unknown
        // type the newest no longer carries was a consumable the app finished.
        let newest = snapshot.latestReceiptHash
        var receiptOfOriginal: [String: String] = [:]
        for record in snapshot.originalTransactions {
            if let hash = record.latestReceiptHash { receiptOfOriginal[record.originalTransactionIdentifier] = hash }
        }
        let purchases = Self.purchases(snapshot, customer)
        let renewals = Self.renewals(snapshot, customer)
        let items = EntitlementRules.items(
            purchases, renewals: renewals,
            names: self.names[request.bundleIdentifier] ?? [:], at: moment.epochMilliseconds,
            leftTheNewestReceipt: { purchase in
                guard let newest, let own = receiptOfOriginal[purchase.originalTransactionID] else { return false }
                return own != newest
            })
        return CustomerFacts(customer: customer, purchases: purchases, renewals: renewals, items: items, moment: moment)
    }

    /// Why a request's customer is not found: the sentence the endpoint and the timeline page say.
    static func unknownCustomer(_ request: EntitlementQuery) -> String {
        "the ledger knows no such customer of \(request.bundleIdentifier) in \(request.environment.rawValue)"
    }

    /// The customer `request` names, as the ledger holds it now (no refresh).
    func customer(_ request: EntitlementQuery) async throws(LedgerError) -> LedgerCustomer? {
        switch request.customer {
        case .appAccountToken(let token):
            return try await self.ledger.customer(
                environment: request.environment, bundleIdentifier: request.bundleIdentifier, appAccountToken: token)
        case .originalTransactionID(let id), .transactionID(let id):
            return try await self.ledger.customer(
                environment: request.environment, bundleIdentifier: request.bundleIdentifier, transactionIdentifier: id)
        }
    }

    /// Every stored transaction of the customer, with what the JWS of its version says where the ledger kept it.
    static func purchases(_ snapshot: LedgerSnapshot, _ customer: LedgerCustomer) -> [PurchaseFacts] {
        var signed: [String: String] = [:]
        for transaction in customer.transactions {
            if let jws = transaction.signed.currentJWS { signed[transaction.transactionIdentifier] = jws }
        }
        return snapshot.transactions.map { row in
            var facts = PurchaseFacts(row)
            if let jws = signed[row.transactionIdentifier], let payload = Self.payload(jws),
                let transaction = try? JWSTransactionPayload(fields: payload)
            {
                facts.learn(from: transaction)
            }
            return facts
        }
    }

    /// Each subscription's renewal information, from the signed renewal information where the ledger kept it.
    static func renewals(_ snapshot: LedgerSnapshot, _ customer: LedgerCustomer) -> [String: RenewalFacts] {
        var renewals: [String: RenewalFacts] = [:]
        for row in snapshot.renewalInfo {
            if let jws = customer.signedRenewalInfo[row.originalTransactionIdentifier], let payload = Self.payload(jws),
                let info = try? JWSRenewalInfoPayload(fields: payload)
            {
                renewals[row.originalTransactionIdentifier] = RenewalFacts(info, versionMilliseconds: row.updatedMilliseconds)
            } else {
                renewals[row.originalTransactionIdentifier] = RenewalFacts(row)
            }
        }
        return renewals
    }

    /// The payload of a JWS the ledger kept (verified when it was learnt).
    private static func payload(_ jws: String) -> [String: JSONValue]? {
        try? CompactJWS.payload(of: jws.utf8)
    }
}
