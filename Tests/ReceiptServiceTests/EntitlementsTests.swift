import AppStoreJWS
import AppStorePKI
import Foundation
import HTTPTypes
import HummingbirdTesting
import LedgerTestSupport
import NIOCore
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import Testing

/// `GET /v1/entitlements` over HTTP on every backend: what a customer is entitled to, from signed data and from
/// receipts alone, by any of its keys, at a moment; the admin tokens; Apple-independent errors with exact codes.
@Suite("Entitlements endpoint")
struct EntitlementsTests {
    typealias C = AppStoreMirrorCustomerTests
    typealias M = AppStoreMirrorTests
    typealias N = NotificationServiceTests
    typealias H = ServiceHarness

    static let tokens = ["first-admin-token-0123456789", "second-admin-token-0123456789"]
    static let day: TimeInterval = 86_400
    static let names: [String: [String: [String]]] = [
        N.bundle: ["com.example.app.monthly": ["pro"], "com.example.app.yearly": ["pro", "archive"]],
    ]

    static func configuration() throws -> VerifyReceiptConfiguration {
        var configuration = try M.configuration()
        configuration.adminTokens = Self.tokens
        configuration.entitlements = Self.names
        return configuration
    }

    /// GETs `/v1/entitlements?query` with `token`: the status, the body as an object, the headers.
    static func get(
        _ client: any TestClientProtocol, _ query: String, token: String? = Self.tokens[0]
    ) async throws -> (status: Int, object: [String: Any], headers: HTTPFields) {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer " + token }
        return try await client.execute(uri: "/v1/entitlements?" + query, method: .get, headers: headers) { response in
            let object = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any]
            return (Int(response.status.code), object ?? [:], response.headers)
        }
    }

    static let app = "bundle_id=\(N.bundle)&environment=Production"

    /// The items by product id.
    static func items(_ object: [String: Any]) -> [String: [String: Any]] {
        var items: [String: [String: Any]] = [:]
        for item in object["items"] as? [[String: Any]] ?? [] { items[item["product_id"] as? String ?? "?"] = item }
        return items
    }

    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    @Test("from signed data: an active subscription, one in its grace period and a refunded purchase; any id of the customer",
          arguments: LedgerBackend.available)
    func fromSignedData(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            _ = try await C.learnCustomer(into: ledger)
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let latestMonthly = String((Int64(C.monthly) ?? 0) + 21)
                for key in ["transaction_id=\(C.lifetime)", "original_transaction_id=\(C.monthly)", "transaction_id=\(latestMonthly)"] {
                    let answer = try await Self.get(client, "\(Self.app)&\(key)")
                    #expect(answer.status == 200, "\(key)")
                    #expect(answer.headers[.cacheControl] == "no-store")
                    #expect(answer.object["active_entitlements"] as? [String] == ["archive", "pro"], "\(key)")
                    #expect(answer.object["original_transaction_ids"] as? [String] == [C.monthly, C.yearly, C.lifetime].sorted())
                    #expect(answer.object["at_ms"] as? Int64 == Self.ms(ServiceTestPKI.now))
                    let items = Self.items(answer.object)
                    #expect(items.keys.sorted() == ["com.example.app.lifetime", "com.example.app.monthly", "com.example.app.yearly"])
                    let monthly = try #require(items["com.example.app.monthly"])
                    #expect(monthly["state"] as? String == "active")
                    #expect(monthly["grants_access"] as? Bool == true)
                    #expect(monthly["transaction_id"] as? String == latestMonthly)
                    #expect(monthly["original_transaction_id"] as? String == C.monthly)
                    #expect(monthly["type"] as? String == "auto_renewable")
                    #expect(monthly["subscription_group_identifier"] as? String == "21000001")
                    #expect(monthly["entitlements"] as? [String] == ["pro"])
                    #expect(monthly["expires_date_ms"] as? Int64 == Self.ms(ServiceTestPKI.now.addingTimeInterval(20 * Self.day)))
                    #expect(monthly["will_renew"] as? Bool == true)
                    #expect(monthly["renews_to_product_id"] as? String == "com.example.app.monthly")
                    #expect(monthly["ownership"] as? String == "purchased")
                    #expect(monthly["source"] as? String == "api")
                    #expect(monthly["updated_date_ms"] as? Int64 == Self.ms(N.signed))
                    let yearly = try #require(items["com.example.app.yearly"])
                    #expect(yearly["state"] as? String == "grace_period")
                    #expect(yearly["grants_access"] as? Bool == true)
                    #expect(yearly["entitlements"] as? [String] == ["pro", "archive"])
                    #expect(yearly["grace_period_expires_date_ms"] as? Int64 == Self.ms(ServiceTestPKI.now.addingTimeInterval(2 * Self.day)))
                    #expect(yearly["subscription_group_identifier"] as? String == "21000002")
                    let lifetime = try #require(items["com.example.app.lifetime"])
                    #expect(lifetime["state"] as? String == "refunded")
                    #expect(lifetime["grants_access"] as? Bool == false)
                    #expect(lifetime["type"] as? String == "non_consumable")
                    #expect(lifetime["entitlements"] as? [String] == ["com.example.app.lifetime"], "a product without names names itself")
                    #expect(lifetime["revocation_reason"] as? Int64 == 0)
                    #expect(lifetime["revocation_date_ms"] as? Int64 == Self.ms(ServiceTestPKI.now.addingTimeInterval(-Self.day)))
                    #expect(lifetime["will_renew"] is NSNull)
                }

                // Three days on: the grace period is over (billing retry) and only the monthly subscription grants.
                let later = ISO8601DateFormatter().string(from: ServiceTestPKI.now.addingTimeInterval(3 * Self.day))
                let afterGrace = try await Self.get(client, "\(Self.app)&transaction_id=\(C.monthly)&at=\(later)")
                #expect(afterGrace.object["active_entitlements"] as? [String] == ["pro"])
                #expect(Self.items(afterGrace.object)["com.example.app.yearly"]?["state"] as? String == "billing_retry")
                // Forty days ago: the yearly subscription was not bought yet, the lifetime purchase not yet refunded.
                let earlier = ISO8601DateFormatter().string(from: ServiceTestPKI.now.addingTimeInterval(-40 * Self.day))
                let before = try await Self.get(client, "\(Self.app)&transaction_id=\(C.monthly)&at=\(earlier)")
                let then = Self.items(before.object)
                #expect(then.keys.sorted() == ["com.example.app.lifetime", "com.example.app.monthly"])
                #expect(then["com.example.app.lifetime"]?["state"] as? String == "active")
                #expect(then["com.example.app.monthly"]?["state"] as? String == "active")
                #expect(then["com.example.app.monthly"]?["transaction_id"] as? String == String((Int64(C.monthly) ?? 0) + 20))
                #expect(before.object["active_entitlements"] as? [String] == ["com.example.app.lifetime", "pro"])

                // The stranger: its subscription expired ten days ago, nothing is active.
                let stranger = try await Self.get(client, "\(Self.app)&transaction_id=\(C.stranger)")
                #expect(stranger.object["active_entitlements"] as? [String] == [])
                #expect(Self.items(stranger.object)["com.example.app.monthly"]?["state"] as? String == "expired")
            }
        }
    }

    @Test("from a receipt alone: a subscription by its expiry, a purchase without one lasting; what a receipt does not say is null",
          arguments: LedgerBackend.available)
    func fromAReceiptAlone(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            // The service's clock is day 896 after 2023-01-01: the monthly bought on day 890 runs to day 920, the
            // older one ran out on day 830.
            let receipt = ServiceTestPKI.receipt(createdDay: 895, purchases: [
                ServiceTestPKI.purchase("3000000000000001", original: "3000000000000001", product: "com.example.app.monthly", day: 770),
                ServiceTestPKI.purchase("3000000000000002", original: "3000000000000001", product: "com.example.app.monthly", day: 800),
                ServiceTestPKI.purchase("3000000000000003", original: "3000000000000001", product: "com.example.app.monthly", day: 890),
                ServiceTestPKI.purchase("3000000000000010", original: "3000000000000010", product: "com.example.app.old", day: 700),
                ServiceTestPKI.purchase(
                    "3000000000000020", original: "3000000000000020", product: "com.example.app.lifetime", day: 10, subscription: false),
            ])
            try await ledger.record(
                LedgerReceipt(receipt, bytes: Array("legacy".utf8), environment: .production, seenAt: ServiceTestPKI.now))
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let answer = try await Self.get(client, "\(Self.app)&original_transaction_id=3000000000000010")
                #expect(answer.status == 200)
                #expect(answer.object["active_entitlements"] as? [String] == ["com.example.app.lifetime", "pro"])
                let items = Self.items(answer.object)
                let monthly = try #require(items["com.example.app.monthly"])
                #expect(monthly["state"] as? String == "active")
                #expect(monthly["transaction_id"] as? String == "3000000000000003")
                #expect(monthly["type"] as? String == "auto_renewable")
                #expect(monthly["subscription_group_identifier"] is NSNull, "a receipt does not say it")
                #expect(monthly["ownership"] is NSNull)
                #expect(monthly["will_renew"] is NSNull)
                #expect(monthly["source"] as? String == "receipt")
                #expect(monthly["offer"] is NSNull)
                #expect(items["com.example.app.old"]?["state"] as? String == "expired")
                let lifetime = try #require(items["com.example.app.lifetime"])
                #expect(lifetime["state"] as? String == "active")
                #expect(lifetime["type"] as? String == "unknown")
                #expect(lifetime["expires_date_ms"] is NSNull)
            }
        }
    }

    @Test("by app account token, in any case; an unknown token is 404 customer_not_found", arguments: LedgerBackend.available)
    func byAppAccountToken(backend: LedgerBackend) async throws {
        let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        try await backend.withLedger { ledger in
            var fields = JWSSamplePayload.transaction(
                bundleIdentifier: N.bundle, productID: "com.example.app.monthly", transactionID: "4000000000000001",
                purchaseDate: ServiceTestPKI.now.addingTimeInterval(-Self.day), signedDate: N.signed)
            fields["appAccountToken"] = .string(token.lowercased())
            fields["offerType"] = .number(JSONNumber(OfferType.introductoryOffer.rawValue))
            fields["offerDiscountType"] = .string(OfferDiscountType.freeTrial.rawValue)
            let jws = try C.sign(fields)
            let row = try #require(
                LedgerTransaction(verified: try JWSTransactionPayload(fields: fields), jws: jws, environment: .production, source: .notification))
            try await ledger.apply(LedgerUpdate(source: .notification, transactions: [row]))
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                for given in [token, token.lowercased()] {
                    let answer = try await Self.get(client, "\(Self.app)&app_account_token=\(given)")
                    #expect(answer.status == 200, "\(given)")
                    #expect(answer.object["active_entitlements"] as? [String] == ["pro"])
                    let item = try #require(Self.items(answer.object)["com.example.app.monthly"])
                    #expect(item["offer"] as? [String: String] == ["type": "free_trial"], "the signed offer type")
                    #expect(item["source"] as? String == "notification")
                }
                let unknown = try await Self.get(client, "\(Self.app)&app_account_token=00000000-0000-0000-0000-000000000000")
                #expect(unknown.status == 404)
                #expect(unknown.object["status"] as? String == "not_found")
                #expect(unknown.object["reasons"] as? [String] == ["customer_not_found"])
                let sandbox = try await Self.get(client, "bundle_id=\(N.bundle)&environment=Sandbox&app_account_token=\(token)")
                #expect(sandbox.status == 404)
            }
        }
    }

    @Test("admin tokens: none configured is no endpoint (404); without a token, or another, 401 with WWW-Authenticate; each configured token admits")
    func adminTokens() async throws {
        try await ServiceHarness.withMemoryLedger { ledger in
            _ = try await C.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let answer = try await Self.get(client, "\(Self.app)&transaction_id=\(C.monthly)")
                #expect(answer.status == 404)
            }
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                for refused in [nil, "not-the-admin-token-0123456789", Self.tokens[0] + "x", String(Self.tokens[0].dropLast())] {
                    let answer = try await Self.get(client, "\(Self.app)&transaction_id=\(C.monthly)", token: refused)
                    #expect(answer.status == 401, "\(refused ?? "none")")
                    #expect(answer.headers[.wwwAuthenticate] == "Bearer")
                    #expect(answer.object["reasons"] as? [String] == ["admin_token_refused"])
                }
                // Another scheme is refused; the scheme's case is not.
                let basic = try await client.execute(
                    uri: "/v1/entitlements?\(Self.app)&transaction_id=\(C.monthly)", method: .get,
                    headers: [.authorization: "Basic " + Self.tokens[0]]) { Int($0.status.code) }
                #expect(basic == 401)
                let lower = try await client.execute(
                    uri: "/v1/entitlements?\(Self.app)&transaction_id=\(C.monthly)", method: .get,
                    headers: [.authorization: "bearer " + Self.tokens[1]]) { Int($0.status.code) }
                #expect(lower == 200)
                for token in Self.tokens {
                    #expect(try await Self.get(client, "\(Self.app)&transaction_id=\(C.monthly)", token: token).status == 200)
                }
                // Only GET, only the exact path.
                let post = try await client.execute(uri: "/v1/entitlements", method: .post, headers: [:]) { Int($0.status.code) }
                #expect(post == 405)
                let variant = try await client.execute(uri: "/v1/entitlements/", method: .get, headers: [:]) { Int($0.status.code) }
                #expect(variant == 404)
            }
        }
    }

    @Test("parameters: missing, repeated, unknown, malformed or ambiguous are 400 with their code")
    func parameterRefusals() async throws {
        try await ServiceHarness.withMemoryLedger { ledger in
            _ = try await C.learnCustomer(into: ledger)
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                let refusals: [(String, String)] = [
                    ("environment=Production&transaction_id=\(C.monthly)", "missing_parameter"),
                    ("bundle_id=\(N.bundle)&transaction_id=\(C.monthly)", "missing_parameter"),
                    (Self.app, "missing_parameter"),
                    ("\(Self.app)&transaction_id=\(C.monthly)&original_transaction_id=\(C.monthly)", "invalid_parameter"),
                    ("\(Self.app)&transaction_id=\(C.monthly)&transaction_id=\(C.yearly)", "invalid_parameter"),
                    ("\(Self.app)&transaction_id=12a", "invalid_parameter"),
                    ("\(Self.app)&app_account_token=not-a-uuid", "invalid_parameter"),
                    ("bundle_id=\(N.bundle)&environment=production&transaction_id=\(C.monthly)", "invalid_parameter"),
                    ("\(Self.app)&transaction_id=\(C.monthly)&at=yesterday", "invalid_parameter"),
                    ("\(Self.app)&transactionId=\(C.monthly)", "unknown_parameter"),
                ]
                for (query, code) in refusals {
                    let answer = try await Self.get(client, query)
                    #expect(answer.status == 400, "\(query)")
                    #expect(answer.object["status"] as? String == "malformed", "\(query)")
                    #expect(answer.object["reasons"] as? [String] == [code], "\(query)")
                    #expect((answer.object["reason"] as? String)?.isEmpty == false)
                }
                let unknown = try await Self.get(client, "\(Self.app)&transaction_id=2000000000000999")
                #expect(unknown.status == 404)
                #expect(unknown.object["reasons"] as? [String] == ["customer_not_found"])
                let otherApp = try await Self.get(client, "bundle_id=com.example.other&environment=Production&transaction_id=\(C.monthly)")
                #expect(otherApp.status == 404)
            }
        }
    }

    @Test("a ledger that does not answer: 503 ledger_unavailable, retryable")
    func ledgerUnavailable() async throws {
        let ledger = FailingLedger(error: LedgerError(.unavailable, "down"))
        try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
            let answer = try await Self.get(client, "\(Self.app)&transaction_id=\(C.monthly)")
            #expect(answer.status == 503)
            #expect(answer.object["reasons"] as? [String] == ["ledger_unavailable"])
        }
    }
}

/// ``EntitlementRules`` on purchases made by hand: the rules the endpoint and the mirror share.
@Suite("Entitlement rules")
struct EntitlementRuleTests {
    static let day: Int64 = 86_400_000
    static let now: Int64 = 1_750_000_000_000

    /// A subscription transaction of `original` bought `bought` days from now, for 30 days.
    static func renewal(
        _ id: String, original: String = "1", product: String = "monthly", bought: Int64, group: String? = "g",
        revoked: Int64? = nil, ownership: InAppOwnershipType = .purchased
    ) throws -> PurchaseFacts {
        var fields = JWSSamplePayload.transaction(
            bundleIdentifier: "b", productID: product, transactionID: id, originalTransactionID: original,
            purchaseDate: Date(timeIntervalSince1970: Double(Self.now + bought * Self.day) / 1000), signedDate: Date())
        fields["subscriptionGroupIdentifier"] = group.map(JSONValue.string)
        fields["inAppOwnershipType"] = .string(ownership.rawValue)
        if let revoked { fields["revocationDate"] = .number(JSONNumber(Self.now + revoked * Self.day)) }
        return PurchaseFacts(try JWSTransactionPayload(fields: fields))
    }

    static func states(_ purchases: [PurchaseFacts], renewals: [String: RenewalFacts] = [:], at: Int64 = Self.now)
        -> [String: String]
    {
        var states: [String: String] = [:]
        for item in EntitlementRules.items(purchases, renewals: renewals, names: [:], at: at) {
            states[item.purchase.transactionID] = item.state.rawValue
        }
        return states
    }

    @Test("an upgrade ends the old product at once: the group's latest transaction is the new product's")
    func upgrade() throws {
        let purchases = [
            try Self.renewal("10", product: "basic", bought: -10),
            try Self.renewal("11", product: "premium", bought: -2),
        ]
        let items = EntitlementRules.items(purchases, renewals: [:], names: [:], at: Self.now)
        #expect(items.map(\.purchase.productID) == ["premium"])
        #expect(items.map(\.state) == [.active])
    }

    @Test("a downgrade waits for the renewal: the current product stays, the renewal information names the next")
    func downgrade() throws {
        var renewal = RenewalFacts(
            try JWSRenewalInfoPayload(
                fields: JWSSamplePayload.renewalInfo(productID: "premium", originalTransactionID: "1", signedDate: Date())))
        renewal.autoRenewProductID = "basic"
        let items = EntitlementRules.items(
            [try Self.renewal("10", product: "premium", bought: -10)], renewals: ["1": renewal], names: [:], at: Self.now)
        #expect(items.map(\.purchase.productID) == ["premium"])
        #expect(items.first?.json.objectValue?["renews_to_product_id"] == .string("basic"))
        // At the renewal the lower level's transaction takes over.
        let renewed = EntitlementRules.items(
            [try Self.renewal("10", product: "premium", bought: -40), try Self.renewal("11", product: "basic", bought: -10)],
            renewals: ["1": renewal], names: [:], at: Self.now)
        #expect(renewed.map(\.purchase.productID) == ["basic"])
    }

    @Test("a refund of one renewal does not revoke the renewals after it; a refund of the latest does")
    func refundOfOneRenewal() throws {
        let refundedEarlier = [
            try Self.renewal("10", bought: -40, revoked: -35), try Self.renewal("11", bought: -10),
        ]
        #expect(Self.states(refundedEarlier) == ["11": "active"])
        let refundedLatest = [try Self.renewal("10", bought: -40), try Self.renewal("11", bought: -10, revoked: -1)]
        #expect(Self.states(refundedLatest) == ["11": "refunded"])
        // Before the refund was made, it was active.
        #expect(Self.states(refundedLatest, at: Self.now - 2 * Self.day) == ["11": "active"])
    }

    @Test("revoked from Family Sharing is revoked, not refunded; a consumable entitles nothing")
    func familySharingAndConsumables() throws {
        let shared = try Self.renewal("20", original: "2", bought: -5, revoked: -1, ownership: .familyShared)
        #expect(Self.states([shared]) == ["20": "revoked"])
        #expect(EntitlementState.revoked.appleStatus == 5 && EntitlementState.refunded.appleStatus == 5)
        let coins = PurchaseFacts(
            try JWSTransactionPayload(
                fields: JWSSamplePayload.transaction(
                    bundleIdentifier: "b", productID: "coins", transactionID: "30", type: .consumable,
                    purchaseDate: Date(timeIntervalSince1970: 1_749_000_000), signedDate: Date())))
        #expect(coins.kind == .consumable)
        #expect(EntitlementRules.items([coins], renewals: [:], names: [:], at: Self.now).isEmpty)
    }

    @Test("two subscriptions of one group (the customer's own and one shared by the family) are two items: a later revoked share hides nothing")
    func twoSubscriptionsOfOneGroup() throws {
        let own = try Self.renewal("10", original: "1", bought: -10, group: "g")
        let shared = try Self.renewal("20", original: "2", bought: -2, group: "g", revoked: -1, ownership: .familyShared)
        #expect(Self.states([own, shared]) == ["10": "active", "20": "revoked"])
    }

    @Test("a purchase of unknown type the customer's newest receipt no longer carries entitles nothing (a finished consumable)")
    func finishedConsumable() throws {
        var coins = try Self.renewal("30", original: "3", product: "coins", bought: -20, group: nil)
        coins.kind = .lasting
        coins.expiresMilliseconds = nil
        let kept = EntitlementRules.items([coins], renewals: [:], names: [:], at: Self.now)
        #expect(kept.map(\.state) == [.active])
        let finished = EntitlementRules.items(
            [coins], renewals: [:], names: [:], at: Self.now, leftTheNewestReceipt: { $0.originalTransactionID == "3" })
        #expect(finished.isEmpty)
    }

    @Test("a subscription is its original transaction's, whatever its products and whether its group is known")
    func grouping() throws {
        let purchases = [
            try Self.renewal("10", original: "1", bought: -10, group: nil),
            try Self.renewal("11", original: "1", product: "premium", bought: -5, group: nil),
            try Self.renewal("20", original: "2", product: "yearly", bought: -5, group: "h"),
        ]
        #expect(Self.states(purchases) == ["11": "active", "20": "active"])
    }
}
