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

/// Apple's rules, notification type by notification type (issue 46 §3): for every type and subtype Apple documents
/// ("notificationType" and "subtype", App Store Server Notifications V2:
/// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype), a scripted history of
/// signed notifications is posted to `/notifications/v2`, then the subscription's Apple status (the mirror's Get All
/// Subscription Statuses), its entitlement state (`/v1/entitlements`) and the `/verifyReceipt` answer are asserted —
/// on every backend, in one live service per backend, each scenario a customer of its own.
@Suite("Subscription rules, notification by notification")
struct NotificationRuleTests {
    typealias C = AppStoreMirrorCustomerTests
    typealias E = EntitlementsTests
    typealias M = AppStoreMirrorTests
    typealias N = NotificationServiceTests
    typealias H = ServiceHarness

    static let day: TimeInterval = 86_400
    static let now = ServiceTestPKI.now

    /// One notification of a history: its type and subtype and the signed data it nests.
    struct Step: Sendable {
        let type: String
        let subtype: String?
        let transaction: [String: JSONValue]?
        let renewal: [String: JSONValue]?
    }

    /// A scripted history and what every endpoint must say after it.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        /// The original transaction id (the receipt's purchase).
        let original: String
        let product: String
        let steps: [Step]
        /// Apple's status of the subscription; `nil` when it is no auto-renewable subscription (no status).
        let status: Int?
        /// The entitlement item's state; `nil`: no item (a consumable).
        let state: String?
        /// `latest_receipt_info`'s newest transaction id in the `/verifyReceipt` answer.
        let latest: String
        /// Whether that transaction carries `cancellation_date_ms`.
        let cancelled: Bool
        /// What else the entitlement item must say (member: value as JSON text).
        var item: [String: String] = [:]

        var testDescription: String { self.name }
    }

    /// A signed transaction of `original`, bought `bought` days from now for 30 days (a subscription) or for good.
    static func transaction(
        _ id: String, original: String, product: String = "com.example.app.monthly", bought: Double,
        type: TransactionType = .autoRenewableSubscription, signedAfter minutes: Double,
        _ edit: (inout [String: JSONValue]) -> Void = { _ in }
    ) -> [String: JSONValue] {
        var fields = JWSSamplePayload.transaction(
            bundleIdentifier: N.bundle, productID: product, transactionID: id, originalTransactionID: original, type: type,
            purchaseDate: Self.now.addingTimeInterval(bought * Self.day),
            signedDate: Self.now.addingTimeInterval(-7200 + minutes * 60))
        edit(&fields)
        return fields
    }

    /// Signed renewal information of `original`.
    static func renewal(
        _ original: String, product: String = "com.example.app.monthly", renews: Bool = true, signedAfter minutes: Double,
        _ edit: (inout [String: JSONValue]) -> Void = { _ in }
    ) -> [String: JSONValue] {
        var fields = JWSSamplePayload.renewalInfo(
            productID: product, originalTransactionID: original, autoRenewStatus: renews ? .on : .off,
            signedDate: Self.now.addingTimeInterval(-7200 + minutes * 60))
        edit(&fields)
        return fields
    }

    static func step(
        _ type: String, _ subtype: String? = nil, _ transaction: [String: JSONValue]? = nil,
        _ renewal: [String: JSONValue]? = nil
    ) -> Step {
        Step(type: type, subtype: subtype, transaction: transaction, renewal: renewal)
    }

    static func timestamp(_ days: Double) -> JSONValue { JWSSamplePayload.timestamp(Self.now.addingTimeInterval(days * Self.day)) }

    // swift-format-ignore
    static var scenarios: [Scenario] {
        var all: [Scenario] = []
        func add(
            _ name: String, _ base: Int, product: String = "com.example.app.monthly",
            status: Int?, state: String?, latest: Int = 0, cancelled: Bool = false, item: [String: String] = [:],
            _ steps: (String, (Int) -> String) -> [Step]
        ) {
            let original = "30000000000\(base)00"
            let id = { (offset: Int) in String((Int64(original) ?? 0) + Int64(offset)) }
            all.append(Scenario(
                name: name, original: original, product: product, steps: steps(original, id), status: status,
                state: state, latest: id(latest), cancelled: cancelled, item: item))
        }
        add("SUBSCRIBED INITIAL_BUY", 10, status: 1, state: "active") { o, _ in
            [step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -5, signedAfter: 1), renewal(o, signedAfter: 1))]
        }
        add("SUBSCRIBED RESUBSCRIBE", 11, status: 1, state: "active", latest: 1) { o, id in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -100, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("EXPIRED", "VOLUNTARY", nil, renewal(o, renews: false, signedAfter: 2) { $0["expirationIntent"] = .number(JSONNumber(1)) }),
                step("SUBSCRIBED", "RESUBSCRIBE", transaction(id(1), original: o, bought: -3, signedAfter: 3), renewal(o, signedAfter: 3)),
            ]
        }
        add("DID_RENEW", 12, status: 1, state: "active", latest: 1) { o, id in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -40, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_RENEW", nil, transaction(id(1), original: o, bought: -10, signedAfter: 2), renewal(o, signedAfter: 2)),
            ]
        }
        add("DID_RENEW BILLING_RECOVERY", 13, status: 1, state: "active", latest: 1) { o, id in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -35, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_FAIL_TO_RENEW", nil, nil, renewal(o, signedAfter: 2) { $0["isInBillingRetryPeriod"] = .bool(true) }),
                step("DID_RENEW", "BILLING_RECOVERY", transaction(id(1), original: o, bought: -1, signedAfter: 3),
                     renewal(o, signedAfter: 3) { $0["isInBillingRetryPeriod"] = .bool(false) }),
            ]
        }
        add("DID_FAIL_TO_RENEW", 14, status: 3, state: "billing_retry", item: ["will_renew": "true"]) { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -32, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_FAIL_TO_RENEW", nil, nil, renewal(o, signedAfter: 2) {
                    $0["isInBillingRetryPeriod"] = .bool(true)
                    $0["expirationIntent"] = .number(JSONNumber(2))
                }),
            ]
        }
        add("DID_FAIL_TO_RENEW GRACE_PERIOD", 15, status: 4, state: "grace_period") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -32, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_FAIL_TO_RENEW", "GRACE_PERIOD", nil, renewal(o, signedAfter: 2) {
                    $0["isInBillingRetryPeriod"] = .bool(true)
                    $0["gracePeriodExpiresDate"] = timestamp(5)
                }),
            ]
        }
        add("GRACE_PERIOD_EXPIRED", 16, status: 3, state: "billing_retry") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -50, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_FAIL_TO_RENEW", "GRACE_PERIOD", nil, renewal(o, signedAfter: 2) {
                    $0["isInBillingRetryPeriod"] = .bool(true)
                    $0["gracePeriodExpiresDate"] = timestamp(-4)
                }),
                step("GRACE_PERIOD_EXPIRED", nil, nil, renewal(o, signedAfter: 3) {
                    $0["isInBillingRetryPeriod"] = .bool(true)
                    $0["gracePeriodExpiresDate"] = timestamp(-4)
                }),
            ]
        }
        for (index, (subtype, intent)) in [("VOLUNTARY", 1), ("BILLING_RETRY", 2), ("PRICE_INCREASE", 3), ("PRODUCT_NOT_FOR_SALE", 4)].enumerated() {
            add("EXPIRED \(subtype)", 17 + index, status: 2, state: "expired",
                item: ["expiration_intent": "\(intent)", "will_renew": "false"]) { o, _ in
                [
                    step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -31, signedAfter: 1), renewal(o, signedAfter: 1)),
                    step("EXPIRED", subtype, nil, renewal(o, renews: false, signedAfter: 2) {
                        $0["expirationIntent"] = .number(JSONNumber(Int64(intent)))
                        $0["isInBillingRetryPeriod"] = .bool(false)
                    }),
                ]
            }
        }
        add("DID_CHANGE_RENEWAL_PREF UPGRADE", 21, product: "com.example.app.premium", status: 1, state: "active", latest: 1,
            item: ["product_id": "\"com.example.app.premium\"", "entitlements": "[\"premium\"]"]) { o, id in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -10, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_CHANGE_RENEWAL_PREF", "UPGRADE",
                     transaction(id(1), original: o, product: "com.example.app.premium", bought: -1, signedAfter: 2),
                     renewal(o, product: "com.example.app.premium", signedAfter: 2)),
            ]
        }
        add("DID_CHANGE_RENEWAL_PREF DOWNGRADE", 22, status: 1, state: "active",
            item: ["product_id": "\"com.example.app.premium\"", "renews_to_product_id": "\"com.example.app.monthly\""]) { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY",
                     transaction(o, original: o, product: "com.example.app.premium", bought: -10, signedAfter: 1),
                     renewal(o, product: "com.example.app.premium", signedAfter: 1)),
                step("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", nil,
                     renewal(o, product: "com.example.app.premium", signedAfter: 2) { $0["autoRenewProductId"] = .string("com.example.app.monthly") }),
            ]
        }
        add("DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED", 23, status: 1, state: "active", item: ["will_renew": "false"]) { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -10, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", nil, renewal(o, renews: false, signedAfter: 2)),
            ]
        }
        add("DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED", 24, status: 1, state: "active", item: ["will_renew": "true"]) { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -10, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", nil, renewal(o, renews: false, signedAfter: 2)),
                step("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", nil, renewal(o, signedAfter: 3)),
            ]
        }
        add("OFFER_REDEEMED", 25, status: 1, state: "active", latest: 1,
            item: ["offer": #"{"identifier":"SPRING","type":"offer_code"}"#]) { o, id in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -40, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("OFFER_REDEEMED", "UPGRADE", transaction(id(1), original: o, bought: -2, signedAfter: 2) {
                    $0["offerType"] = .number(JSONNumber(OfferType.offerCode.rawValue))
                    $0["offerIdentifier"] = .string("SPRING")
                }, renewal(o, signedAfter: 2)),
            ]
        }
        add("PRICE_INCREASE PENDING then ACCEPTED", 26, status: 1, state: "active") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -10, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("PRICE_INCREASE", "PENDING", nil, renewal(o, signedAfter: 2) { $0["priceIncreaseStatus"] = .number(JSONNumber(0)) }),
                step("PRICE_INCREASE", "ACCEPTED", nil, renewal(o, signedAfter: 3) { $0["priceIncreaseStatus"] = .number(JSONNumber(1)) }),
            ]
        }
        add("REFUND", 27, status: 5, state: "refunded", cancelled: true, item: ["revocation_reason": "0"]) { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -5, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("REFUND", nil, transaction(o, original: o, bought: -5, signedAfter: 2) {
                    $0["revocationDate"] = timestamp(-0.1)
                    $0["revocationReason"] = .number(JSONNumber(0))
                }),
            ]
        }
        add("REFUND of one renewal", 28, status: 1, state: "active", latest: 1) { o, id in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -40, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("DID_RENEW", nil, transaction(id(1), original: o, bought: -10, signedAfter: 2), renewal(o, signedAfter: 2)),
                step("REFUND", nil, transaction(o, original: o, bought: -40, signedAfter: 3) {
                    $0["revocationDate"] = timestamp(-1)
                    $0["revocationReason"] = .number(JSONNumber(1))
                }),
            ]
        }
        add("REFUND_DECLINED", 29, status: 1, state: "active") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -5, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("REFUND_DECLINED", nil, transaction(o, original: o, bought: -5, signedAfter: 2)),
            ]
        }
        add("REFUND_REVERSED", 30, status: 1, state: "active") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -5, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("REFUND", nil, transaction(o, original: o, bought: -5, signedAfter: 2) {
                    $0["revocationDate"] = timestamp(-0.5)
                    $0["revocationReason"] = .number(JSONNumber(0))
                }),
                step("REFUND_REVERSED", nil, transaction(o, original: o, bought: -5, signedAfter: 3)),
            ]
        }
        add("REVOKE", 31, status: 5, state: "revoked", cancelled: true, item: ["ownership": "\"family_shared\""]) { o, _ in
            let shared: (inout [String: JSONValue]) -> Void = { $0["inAppOwnershipType"] = .string(InAppOwnershipType.familyShared.rawValue) }
            return [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -5, signedAfter: 1, shared), renewal(o, signedAfter: 1)),
                step("REVOKE", nil, transaction(o, original: o, bought: -5, signedAfter: 2) {
                    shared(&$0)
                    $0["revocationDate"] = timestamp(-0.1)
                    $0["revocationReason"] = .number(JSONNumber(0))
                }),
            ]
        }
        add("RENEWAL_EXTENDED", 32, status: 1, state: "active") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -31, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("RENEWAL_EXTENDED", nil, transaction(o, original: o, bought: -31, signedAfter: 2) { $0["expiresDate"] = timestamp(6) },
                     renewal(o, signedAfter: 2)),
            ]
        }
        add("RENEWAL_EXTENSION SUMMARY", 33, status: 1, state: "active") { o, _ in
            [
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -5, signedAfter: 1), renewal(o, signedAfter: 1)),
                step("RENEWAL_EXTENSION", "SUMMARY"),
            ]
        }
        add("ONE_TIME_CHARGE", 34, product: "com.example.app.lifetime", status: nil, state: "active",
            item: ["type": "\"non_consumable\""]) { o, _ in
            [step("ONE_TIME_CHARGE", nil, transaction(o, original: o, product: "com.example.app.lifetime", bought: -1, type: .nonConsumable, signedAfter: 1))]
        }
        add("CONSUMPTION_REQUEST", 35, product: "com.example.app.coins", status: nil, state: nil) { o, _ in
            [
                step("ONE_TIME_CHARGE", nil, transaction(o, original: o, product: "com.example.app.coins", bought: -1, type: .consumable, signedAfter: 1)),
                step("CONSUMPTION_REQUEST", nil, transaction(o, original: o, product: "com.example.app.coins", bought: -1, type: .consumable, signedAfter: 2)),
            ]
        }
        add("out of order: a renewal and renewal information posted before what Apple signed earlier", 36,
            status: 1, state: "active", latest: 1, item: ["will_renew": "true"]) { o, id in
            [
                step("DID_RENEW", nil, transaction(id(1), original: o, bought: -10, signedAfter: 3), renewal(o, signedAfter: 3)),
                step("SUBSCRIBED", "INITIAL_BUY", transaction(o, original: o, bought: -40, signedAfter: 1), renewal(o, renews: false, signedAfter: 1)),
                step("DID_RENEW", nil, transaction(id(1), original: o, bought: -10, signedAfter: 3), renewal(o, signedAfter: 3)),
            ]
        }
        return all
    }

    /// The notification body Apple would post for `step`, signed by the test authority (a `SUMMARY` carries neither
    /// a transaction nor renewal information).
    static func body(_ step: Step, uuid: String) throws -> [UInt8] {
        let authority = try N.authority.get()
        let transaction = try step.transaction.map { try JWSMinter.sign($0, signer: authority.leaf, chain: authority.chain) }
        let renewal = try step.renewal.map { try JWSMinter.sign($0, signer: authority.leaf, chain: authority.chain) }
        let payload = JWSSamplePayload.notification(
            type: NotificationType(rawValue: step.type), subtype: step.subtype.map(NotificationSubtype.init(rawValue:)),
            notificationUUID: uuid, bundleIdentifier: N.bundle, appAppleID: 1, signedDate: Self.now.addingTimeInterval(-3600),
            signedTransactionInfo: transaction, signedRenewalInfo: renewal)
        return JSONValue.object(["signedPayload": .string(try JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain))])
            .serialized
    }

    static func configuration() throws -> VerifyReceiptConfiguration {
        var configuration = try E.configuration()
        configuration.entitlements = [
            N.bundle: ["com.example.app.monthly": ["pro"], "com.example.app.premium": ["premium"]],
        ]
        return configuration
    }

    @Test("each notification type and subtype: Apple's status, the entitlement state and the verifyReceipt answer",
          arguments: LedgerBackend.available)
    func everyType(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            try await H.withLiveService(try Self.configuration(), ledger: ledger) { client, _ in
                for (number, scenario) in Self.scenarios.enumerated() {
                    try await Self.check(scenario, number: number, client: client)
                }
                // TEST carries nothing: recorded, and no customer appears.
                let test = try await client.execute(
                    uri: "/notifications/v2", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(bytes: try Self.body(Self.step("TEST"), uuid: UUID().uuidString.lowercased()))) {
                        Int($0.status.code)
                    }
                #expect(test == 200)
            }
        }
    }

    static func check(_ scenario: Scenario, number: Int, client: any TestClientProtocol) async throws {
        let name = scenario.name
        for (index, step) in scenario.steps.enumerated() {
            let uuid = String(format: "9e1b0000-0000-4000-8000-%06d%06d", number, index)
            let status = try await client.execute(
                uri: "/notifications/v2", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: try Self.body(step, uuid: uuid))) { Int($0.status.code) }
            #expect(status == 200, "\(name): step \(index)")
        }
        // The app posts the customer's receipt: its one purchase, the original, bought long ago.
        let receipt = try ServiceTestPKI.mint(ServiceTestPKI.receipt(purchases: [
            ServiceTestPKI.purchase(scenario.original, original: scenario.original, product: "com.example.app.monthly", day: 1)
        ]))
        let answer = try await H.post(client, body: H.body(receipt))
        #expect(answer["status"] as? Int == 0, "\(name)")
        let newest = (answer["latest_receipt_info"] as? [[String: Any]])?.first
        #expect(newest?["transaction_id"] as? String == scenario.latest, "\(name): verifyReceipt's newest transaction")
        #expect((newest?["cancellation_date_ms"] != nil) == scenario.cancelled, "\(name): cancellation_date_ms")

        let statuses = try await C.get(client, "/inApps/v1/subscriptions/\(scenario.original)")
        #expect(statuses.status == 200, "\(name): \(statuses.object)")
        let items = C.groups(statuses.object).values.flatMap { $0 }
        #expect(items.compactMap { $0["status"] as? Int } == (scenario.status.map { [$0] } ?? []), "\(name): Apple's status")

        let entitlements = try await E.get(client, "\(E.app)&original_transaction_id=\(scenario.original)")
        #expect(entitlements.status == 200, "\(name)")
        let item = (entitlements.object["items"] as? [[String: Any]] ?? []).first
        #expect(item?["state"] as? String == scenario.state, "\(name): entitlement state")
        let granted = (entitlements.object["active_entitlements"] as? [String] ?? []).isEmpty == false
        #expect(granted == (scenario.state == "active" || scenario.state == "grace_period"), "\(name): access")
        for (member, expected) in scenario.item {
            let value = item?[member].flatMap { value -> String? in
                guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
                else { return nil }
                return String(decoding: data, as: UTF8.self)
            }
            #expect(value == expected, "\(name): \(member)")
        }
    }
}
