import AppStoreJWS
public import AppStorePKI
public import struct Foundation.Date
public import ReceiptLedger
import _ReceiptKitShared

/// The entitlements endpoint's and the App Store Server API mirror's answers, read from a ledger directly — for
/// support staff and scripts (`receiptkit subscription`): no token (the caller holds the database), no refresh from
/// Apple (the ledger answers as it stands), the same rules and the same JSON.
public enum SubscriptionReport {
    /// One answer: the HTTP status the service would have answered with, and the body.
    public struct Answer: Sendable {
        /// 200, or the error's status (400, 404, 500, 503).
        public let status: Int
        /// The JSON body, as the endpoint writes it.
        public let body: [UInt8]
    }

    /// `GET /v1/entitlements`'s answer for `query`, with entitlement names by bundle id and product id.
    public static func entitlements(
        _ query: EntitlementQuery, in ledger: any Ledger, names: [String: [String: [String]]], now: @escaping @Sendable () -> Date
    ) async -> Answer {
        let endpoint = EntitlementEndpoint(
            ledger: ledger, tokens: AdminTokens([]), names: names, now: now, refresh: { _, _ in false })
        let answer: EntitlementAnswer
        do throws(EntitlementRefusal) {
            answer = .answered(try await endpoint.entitlements(query))
        } catch {
            answer = .refused(error)
        }
        return Answer(status: answer.outcome.httpStatus, body: answer.body)
    }

    /// Get All Subscription Statuses' answer (`GET /inApps/v1/subscriptions/{transactionId}`) for the customer
    /// `transactionID` names, each status at `now`.
    public static func statuses(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionID: String, in ledger: any Ledger,
        now: @escaping @Sendable () -> Date
    ) async -> Answer {
        let answer = await AppStoreMirror(ledger: ledger, now: now).subscriptionStatuses(
            environment: environment, caller: .trusted(bundleIdentifier: bundleIdentifier), transactionID: transactionID,
            query: [:])
        return Answer(status: answer.status, body: answer.body)
    }

    /// Get Transaction History v2's pages for the customer `transactionID` names, every page of it in the ledger's
    /// order of changes, as one answer: `{"bundleId", "environment", "signedTransactions": [every page's], "pages"}`
    /// (a page's error ends it).
    public static func history(
        environment: AppStoreEnvironment, bundleIdentifier: String, transactionID: String, in ledger: any Ledger,
        now: @escaping @Sendable () -> Date
    ) async -> Answer {
        let mirror = AppStoreMirror(ledger: ledger, now: now)
        var signed: [JSONValue] = []
        var revision: String?
        var pages = 0
        // A customer's history is bounded by the ledger; so is the walk (a revision always moves on).
        while true {
            let answer = await mirror.transactionHistory(
                environment: environment, caller: .trusted(bundleIdentifier: bundleIdentifier),
                transactionID: transactionID, query: revision.map { ["revision": [$0]] } ?? [:])
            guard answer.status == 200, case .object(let page)? = try? JSONParser.parse(answer.body, maximumDepth: 8)
            else { return Answer(status: answer.status, body: answer.body) }
            pages += 1
            if case .array(let items)? = page["signedTransactions"] { signed += items }
            guard page["hasMore"] == .bool(true), case .string(let next)? = page["revision"], next != revision else { break }
            revision = next
        }
        let members: [String: JSONValue] = [
            "bundleId": .string(bundleIdentifier), "environment": .string(environment.rawValue),
            "signedTransactions": .array(signed), "pages": .number(JSONNumber(Int64(pages))),
        ]
        return Answer(status: 200, body: JSONValue.object(members).serialized)
    }
}
