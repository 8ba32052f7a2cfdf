import AppStoreJWS
import AppStorePKI
import AppStoreServerAPI
import AppStoreServerAPISimulator
import Foundation
import HummingbirdTesting
import LedgerTestSupport
import ReceiptKit
import ReceiptKitTesting
import ReceiptLedger
@testable import ReceiptService
import Testing

/// The mirror's customer-wide endpoints — Get All Subscription Statuses, Get Transaction History v2, Get Refund
/// History v2 — over HTTP on every backend: one customer as a receipt tells it, its transactions and renewal
/// information then signed by the App Store.
@Suite("App Store Server API mirror: a customer's statuses and histories")
struct AppStoreMirrorCustomerTests {
    typealias M = AppStoreMirrorTests
    typealias N = NotificationServiceTests

    static let day: TimeInterval = 86_400
    /// The monthly subscription (group 21000001): 22 renewals, the last bought 10 days before the service's clock.
    static let monthly = "2000000000000001"
    /// The yearly subscription (group 21000002): expired 5 days ago, Apple still billing, in the grace period.
    static let yearly = "2000000000000101"
    /// A non-consumable, refunded yesterday.
    static let lifetime = "2000000000000201"
    /// Another customer's subscription, known from signed data only.
    static let stranger = "2000000000000301"

    /// The signed fields of each transaction of the customer.
    static func transactions(environment: AppStoreEnvironment = .production) -> [[String: JSONValue]] {
        let now = ServiceTestPKI.now
        var all: [[String: JSONValue]] = []
        for index in 0..<22 {
            let purchased = now.addingTimeInterval(-Double(21 - index) * 30 * Self.day - 10 * Self.day)
            all.append(
                JWSSamplePayload.transaction(
                    bundleIdentifier: N.bundle, productID: "com.example.app.monthly",
                    transactionID: String(Int64(Self.monthly).map { $0 + Int64(index) } ?? 0),
                    originalTransactionID: Self.monthly, environment: environment, purchaseDate: purchased, signedDate: N.signed))
        }
        var yearly = JWSSamplePayload.transaction(
            bundleIdentifier: N.bundle, productID: "com.example.app.yearly", transactionID: Self.yearly,
            environment: environment, purchaseDate: now.addingTimeInterval(-35 * Self.day), signedDate: N.signed)
        yearly["subscriptionGroupIdentifier"] = .string("21000002")
        all.append(yearly)
        var lifetime = JWSSamplePayload.transaction(
            bundleIdentifier: N.bundle, productID: "com.example.app.lifetime", transactionID: Self.lifetime,
            type: .nonConsumable, environment: environment, purchaseDate: now.addingTimeInterval(-50 * Self.day),
            signedDate: N.signed)
        lifetime["revocationDate"] = JWSSamplePayload.timestamp(now.addingTimeInterval(-Self.day))
        lifetime["revocationReason"] = .number(JSONNumber(0))
        all.append(lifetime)
        return all
    }

    /// Signs `fields` with the test authority.
    static func sign(_ fields: [String: JSONValue]) throws -> String {
        let authority = try N.authority.get()
        return try JWSMinter.sign(fields, signer: authority.leaf, chain: authority.chain)
    }

    /// The customer: a receipt carrying its three original transactions (so the ledger knows they are one
    /// customer's), then every transaction and both subscriptions' renewal information signed by the App Store
    /// after it; and a stranger known from signed data only. Returns the JWS of each transaction by id and of each
    /// renewal information by original transaction id.
    static func learnCustomer(
        into ledger: any Ledger, environment: AppStoreEnvironment = .production
    ) async throws -> (transactions: [String: String], renewals: [String: String]) {
        let receipt = ServiceTestPKI.receipt(
            environment: environment == .production ? .production : .productionSandbox,
            purchases: [
                ServiceTestPKI.purchase(Self.monthly, original: Self.monthly, product: "com.example.app.monthly", day: 1),
                ServiceTestPKI.purchase(Self.yearly, original: Self.yearly, product: "com.example.app.yearly", day: 2),
                ServiceTestPKI.purchase(
                    Self.lifetime, original: Self.lifetime, product: "com.example.app.lifetime", day: 3, subscription: false),
            ])
        try await ledger.record(
            LedgerReceipt(receipt, bytes: Array("customer".utf8), environment: environment, seenAt: ServiceTestPKI.now))
        var strangerFields = JWSSamplePayload.transaction(
            bundleIdentifier: N.bundle, productID: "com.example.app.monthly", transactionID: Self.stranger,
            environment: environment, purchaseDate: ServiceTestPKI.now.addingTimeInterval(-40 * Self.day),
            signedDate: N.signed)
        strangerFields["expiresDate"] = JWSSamplePayload.timestamp(ServiceTestPKI.now.addingTimeInterval(-10 * Self.day))
        var transactionJWS: [String: String] = [:]
        var rows: [LedgerTransaction] = []
        for fields in Self.transactions(environment: environment) + [strangerFields] {
            let jws = try Self.sign(fields)
            let payload = try JWSTransactionPayload(fields: fields)
            rows.append(try #require(LedgerTransaction(verified: payload, jws: jws, environment: environment, source: .api)))
            transactionJWS[payload.transactionID ?? ""] = jws
        }
        var renewals: [LedgerRenewalInfo] = []
        var renewalJWS: [String: String] = [:]
        for (original, product) in [
            (Self.monthly, "com.example.app.monthly"), (Self.yearly, "com.example.app.yearly"),
            (Self.stranger, "com.example.app.monthly"),
        ] {
            var fields = JWSSamplePayload.renewalInfo(
                productID: product, originalTransactionID: original, environment: environment, signedDate: N.signed)
            if original == Self.yearly {
                fields["isInBillingRetryPeriod"] = .bool(true)
                fields["gracePeriodExpiresDate"] = JWSSamplePayload.timestamp(ServiceTestPKI.now.addingTimeInterval(2 * Self.day))
            }
            let jws = try Self.sign(fields)
            renewals.append(
                try #require(
                    LedgerRenewalInfo(
                        verified: try JWSRenewalInfoPayload(fields: fields), jws: jws, bundleIdentifier: N.bundle,
                        environment: environment, source: .api)))
            renewalJWS[original] = jws
        }
        try await ledger.apply(LedgerUpdate(source: .api, transactions: rows, renewalInfo: renewals))
        return (transactionJWS, renewalJWS)
    }

    /// GETs `path` with a good token: the status and the body as a JSON object.
    static func get(_ client: any TestClientProtocol, _ path: String) async throws -> (status: Int, object: [String: Any]) {
        let answer = try await M.get(client, path, authorization: try M.token())
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] ?? [:]
        return (answer.status, object)
    }

    @Test("Get All Subscription Statuses: each subscription's latest transaction and renewal info, its status now; status filters; any id of the customer",
          arguments: LedgerBackend.available)
    func statuses(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let signed = try await Self.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let latestMonthly = String((Int64(Self.monthly) ?? 0) + 21)
                let expected: [String: [[String: AnyHashable]]] = [
                    "21000001": [[
                        "status": 1, "originalTransactionId": Self.monthly,
                        "signedTransactionInfo": signed.transactions[latestMonthly] ?? "",
                        "signedRenewalInfo": signed.renewals[Self.monthly] ?? "",
                    ]],
                    "21000002": [[
                        "status": 4, "originalTransactionId": Self.yearly,
                        "signedTransactionInfo": signed.transactions[Self.yearly] ?? "",
                        "signedRenewalInfo": signed.renewals[Self.yearly] ?? "",
                    ]],
                ]
                // Any transaction id of the customer, or an original transaction id, names the customer.
                for id in [Self.lifetime, Self.monthly, "2000000000000007", Self.yearly] {
                    let answer = try await Self.get(client, "/inApps/v1/subscriptions/\(id)")
                    #expect(answer.status == 200, "\(id)")
                    #expect(answer.object["bundleId"] as? String == N.bundle)
                    #expect(answer.object["environment"] as? String == "Production")
                    #expect(Self.groups(answer.object) == expected, "\(id)")
                }
                let graced = try await Self.get(client, "/inApps/v1/subscriptions/\(Self.monthly)?status=4&status=3")
                #expect(Self.groups(graced.object) == ["21000002": expected["21000002"] ?? []])
                let none = try await Self.get(client, "/inApps/v1/subscriptions/\(Self.monthly)?status=5")
                #expect(graced.status == 200 && none.status == 200)
                #expect(Self.groups(none.object).isEmpty)
                for bad in ["0", "6", "active", ""] {
                    let answer = try await M.get(client, "/inApps/v1/subscriptions/\(Self.monthly)?status=\(bad)", authorization: try M.token())
                    #expect(answer.status == 400, "\(bad)")
                    #expect(String(decoding: answer.body, as: UTF8.self)
                        == #"{"errorCode":4000031,"errorMessage":"Invalid request. The status parameter is invalid."}"#)
                }
                // Another customer is answered with its own subscription only: expired 10 days ago, not billing.
                let stranger = try await Self.get(client, "/inApps/v1/subscriptions/\(Self.stranger)")
                let strangerGroups = Self.groups(stranger.object)
                #expect(strangerGroups.keys.sorted() == ["21000001"])
                #expect(strangerGroups["21000001"]?.first?["status"] as? Int == 2)
                #expect(strangerGroups["21000001"]?.first?["originalTransactionId"] as? String == Self.stranger)
                let unknown = try await M.get(client, "/inApps/v1/subscriptions/2000000000000999", authorization: try M.token())
                #expect(unknown.status == 404)
                #expect(try await M.get(client, "/inApps/v1/subscriptions/12a", authorization: try M.token()).status == 400)
                #expect(try await M.get(client, "/inApps/v1/subscriptions/\(Self.monthly)", authorization: nil).status == 401)
                // Production's customer is not sandbox's.
                #expect(try await M.get(client, "/sandbox/inApps/v1/subscriptions/\(Self.monthly)", authorization: try M.token()).status == 404)
            }
        }
    }

    /// `data` as subscription group → its `lastTransactions`.
    static func groups(_ object: [String: Any]) -> [String: [[String: AnyHashable]]] {
        var groups: [String: [[String: AnyHashable]]] = [:]
        for group in object["data"] as? [[String: Any]] ?? [] {
            let items = (group["lastTransactions"] as? [[String: Any]] ?? []).map { item in
                item.compactMapValues { $0 as? AnyHashable }
            }
            groups[group["subscriptionGroupIdentifier"] as? String ?? "?"] = items
        }
        return groups
    }

    @Test("Apple's status at the moment asked: active, expired, billing retry, grace period, revoked")
    func statusRule() throws {
        let now = ServiceTestPKI.now
        func status(expires: TimeInterval, revoked: Bool = false, retry: Bool = false, grace: TimeInterval? = nil) throws -> Int64 {
            var transaction = JWSSamplePayload.transaction(
                bundleIdentifier: N.bundle, productID: "p", transactionID: "1", purchaseDate: now.addingTimeInterval(-40 * Self.day),
                signedDate: now)
            transaction["expiresDate"] = JWSSamplePayload.timestamp(now.addingTimeInterval(expires))
            if revoked { transaction["revocationDate"] = JWSSamplePayload.timestamp(now.addingTimeInterval(-60)) }
            var renewal = JWSSamplePayload.renewalInfo(productID: "p", originalTransactionID: "1", signedDate: now)
            if retry { renewal["isInBillingRetryPeriod"] = .bool(true) }
            if let grace { renewal["gracePeriodExpiresDate"] = JWSSamplePayload.timestamp(now.addingTimeInterval(grace)) }
            return MirrorSubscriptionStatus.status(
                transaction: try JWSTransactionPayload(fields: transaction), renewal: try JWSRenewalInfoPayload(fields: renewal),
                nowMilliseconds: Int64(now.timeIntervalSince1970 * 1000))
        }
        #expect(try status(expires: 60) == 1)
        #expect(try status(expires: 60, revoked: true) == 5)
        #expect(try status(expires: -60, revoked: true, retry: true, grace: 60) == 5)
        #expect(try status(expires: -60) == 2)
        #expect(try status(expires: -60, grace: 60) == 2, "a grace date without billing retry is over")
        #expect(try status(expires: -60, retry: true) == 3)
        #expect(try status(expires: -60, retry: true, grace: -1) == 3, "the grace period ended")
        #expect(try status(expires: -60, retry: true, grace: 60) == 4)
        #expect(try status(expires: 0) == 2, "expiring at the moment asked is expired")
    }

    typealias H = ServiceHarness

    @Test("Get Transaction History v2: 20 a page, every page then only what changed since, filters and sort as Apple's, Apple's errors",
          arguments: LedgerBackend.available)
    func history(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let signed = try await Self.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let customer = Self.transactions().compactMap { $0["transactionId"]?.stringValue }.sorted()
                #expect(customer.count == 24)
                var seen: [String] = []
                var revision: String?
                var pages = 0
                repeat {
                    let query = revision.map { "?revision=\($0)" } ?? ""
                    let page = try await Self.get(client, "/inApps/v2/history/\(Self.lifetime)\(query)")
                    #expect(page.status == 200)
                    #expect(page.object["bundleId"] as? String == N.bundle)
                    #expect(page.object["environment"] as? String == "Production")
                    let jws = page.object["signedTransactions"] as? [String] ?? []
                    #expect(jws.count == (pages == 0 ? 20 : 4))
                    seen += jws.compactMap { token in signed.transactions.first { $0.value == token }?.key }
                    revision = page.object["revision"] as? String
                    pages += 1
                    if page.object["hasMore"] as? Bool != true { break }
                } while pages < 5
                #expect(pages == 2)
                // All signed at one time: the ledger's order of changes is then the transaction ids'.
                #expect(seen == customer, "every transaction once, in order, byte for byte")
                let last = try #require(revision)
                let nothingNew = try await Self.get(client, "/inApps/v2/history/\(Self.lifetime)?revision=\(last)")
                #expect((nothingNew.object["signedTransactions"] as? [String])?.isEmpty == true)
                #expect(nothingNew.object["hasMore"] as? Bool == false)
                #expect(nothingNew.object["revision"] as? String == last)

                // A renewal signed later: the last revision gets it alone.
                var renewal = JWSSamplePayload.transaction(
                    bundleIdentifier: N.bundle, productID: "com.example.app.monthly", transactionID: "2000000000000050",
                    originalTransactionID: Self.monthly, purchaseDate: ServiceTestPKI.now, signedDate: N.signed.addingTimeInterval(60))
                renewal["transactionReason"] = .string("RENEWAL")
                let renewalJWS = try Self.sign(renewal)
                let row = try #require(
                    LedgerTransaction(verified: try JWSTransactionPayload(fields: renewal), jws: renewalJWS, environment: .production, source: .api))
                try await ledger.apply(LedgerUpdate(source: .api, transactions: [row]))
                let changed = try await Self.get(client, "/inApps/v2/history/\(Self.lifetime)?revision=\(last)")
                #expect(changed.object["signedTransactions"] as? [String] == [renewalJWS])

                // Newest first: the later renewal, then the ids downwards.
                let descending = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)?sort=DESCENDING")
                let newest = (descending.object["signedTransactions"] as? [String] ?? []).prefix(2)
                #expect(Array(newest) == [renewalJWS, signed.transactions[customer[23]] ?? ""])
                #expect(descending.object["hasMore"] as? Bool == true)

                func ids(_ query: String) async throws -> [String] {
                    let answer = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)?\(query)")
                    #expect(answer.status == 200, "\(query)")
                    return (answer.object["signedTransactions"] as? [String] ?? []).compactMap { token in
                        (try? CompactJWS(Array(token.utf8)))?.payload["transactionId"]?.stringValue
                    }
                }
                #expect(try await ids("productType=NON_CONSUMABLE") == [Self.lifetime])
                #expect(try await ids("revoked=true") == [Self.lifetime])
                #expect(try await ids("revoked=false&productType=NON_CONSUMABLE").isEmpty)
                #expect(try await ids("subscriptionGroupIdentifier=21000002") == [Self.yearly])
                #expect(try await ids("productId=com.example.app.yearly&productId=com.example.app.lifetime") == [Self.yearly, Self.lifetime])
                #expect(try await ids("inAppOwnershipType=FAMILY_SHARED").isEmpty)
                #expect(try await ids("inAppOwnershipType=ASSIGNED").isEmpty)  // API 1.22's third value: taken
                let start = Int64(ServiceTestPKI.now.addingTimeInterval(-36 * Self.day).timeIntervalSince1970 * 1000)
                let end = Int64(ServiceTestPKI.now.addingTimeInterval(-1 * Self.day).timeIntervalSince1970 * 1000)
                // Bought from 36 days ago until yesterday: the yearly (35 days) and one monthly renewal (10 days).
                #expect(try await ids("startDate=\(start)&endDate=\(end)") == ["2000000000000022", Self.yearly])

                let refusals: [(String, String)] = [
                    ("sort=UP", #"{"errorCode":4000021,"errorMessage":"Invalid request. The sort parameter is invalid."}"#),
                    ("productType=GADGET", #"{"errorCode":4000022,"errorMessage":"Invalid request. The product type parameter is invalid."}"#),
                    ("revoked=yes", #"{"errorCode":4000030,"errorMessage":"Invalid request. The revoked parameter is invalid."}"#),
                    ("inAppOwnershipType=BORROWED", #"{"errorCode":4000026,"errorMessage":"Invalid request. The in-app ownership type parameter is invalid."}"#),
                    ("startDate=\(end)&endDate=\(start)", #"{"errorCode":4000013,"errorMessage":"Invalid request. The end date precedes the start date or the dates are the same."}"#),
                    ("startDate=yesterday", #"{"errorCode":4000015,"errorMessage":"Invalid request. The start date is not a timestamp value in milliseconds."}"#),
                    ("endDate=-1", #"{"errorCode":4000016,"errorMessage":"Invalid request. The end date is not a timestamp value in milliseconds."}"#),
                    ("revision=bm90LWEtdG9rZW4", #"{"errorCode":4000005,"errorMessage":"Invalid request revision."}"#),
                    ("revision=\(MirrorRevision.encode(MirrorRevision.refunds, MirrorPosition.start))", #"{"errorCode":4000005,"errorMessage":"Invalid request revision."}"#),
                ]
                for (query, body) in refusals {
                    let answer = try await M.get(client, "/inApps/v2/history/\(Self.monthly)?\(query)", authorization: try M.token())
                    #expect(answer.status == 400, "\(query)")
                    #expect(String(decoding: answer.body, as: UTF8.self) == body, "\(query)")
                }
                #expect(try await M.get(client, "/inApps/v2/history/2000000000000999", authorization: try M.token()).status == 404)
                #expect(try await M.get(client, "/inApps/v2/history/\(Self.monthly)", authorization: try M.token(key: M.otherKey)).status == 401)
            }
        }
    }

    @Test("Get Refund History v2: the customer's refunded and revoked transactions; paging tokens its own",
          arguments: LedgerBackend.available)
    func refunds(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            let signed = try await Self.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let answer = try await Self.get(client, "/inApps/v2/refund/lookup/\(Self.monthly)")
                #expect(answer.status == 200)
                #expect(answer.object["signedTransactions"] as? [String] == [signed.transactions[Self.lifetime] ?? ""])
                #expect(answer.object["hasMore"] as? Bool == false)
                let revision = try #require(answer.object["revision"] as? String)
                let after = try await Self.get(client, "/inApps/v2/refund/lookup/\(Self.monthly)?revision=\(revision)")
                #expect((after.object["signedTransactions"] as? [String])?.isEmpty == true)
                #expect(after.object["revision"] as? String == revision)
                let stranger = try await Self.get(client, "/inApps/v2/refund/lookup/\(Self.stranger)")
                #expect((stranger.object["signedTransactions"] as? [String])?.isEmpty == true)
                let history = try #require(
                    try await Self.get(client, "/inApps/v2/history/\(Self.monthly)").object["revision"] as? String)
                let crossed = try await M.get(client, "/inApps/v2/refund/lookup/\(Self.monthly)?revision=\(history)", authorization: try M.token())
                #expect(crossed.status == 400)
                #expect(try await M.get(client, "/inApps/v2/refund/lookup/2000000000000999", authorization: try M.token()).status == 404)
            }
        }
    }

    @Test("a customer with a transaction the ledger holds no JWS for: every customer-wide answer is 500 5000001, never a partial one",
          arguments: LedgerBackend.available)
    func unsignedTransaction(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            _ = try await Self.learnCustomer(into: ledger)
            // A newer receipt of the customer adds a purchase the App Store has not signed for the ledger yet.
            let receipt = ServiceTestPKI.receipt(
                createdDay: 1000,
                purchases: [
                    ServiceTestPKI.purchase(Self.yearly, original: Self.yearly, product: "com.example.app.yearly", day: 2),
                    ServiceTestPKI.purchase("2000000000000401", original: "2000000000000401", product: "com.example.app.coins", day: 900, subscription: false),
                ])
            try await ledger.record(
                LedgerReceipt(receipt, bytes: Array("newer".utf8), environment: .production, seenAt: ServiceTestPKI.now))
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                for path in ["/inApps/v1/subscriptions/", "/inApps/v2/history/", "/inApps/v2/refund/lookup/"] {
                    let answer = try await M.get(client, path + "2000000000000401", authorization: try M.token())
                    #expect(answer.status == 500, "\(path)")
                    #expect(String(decoding: answer.body, as: UTF8.self)
                        == #"{"errorCode":5000001,"errorMessage":"An unknown error occurred. Please try again."}"#)
                }
            }
        }
    }

    typealias B = APIBridgeTests
    typealias L = LedgerAnswerTests

    @Test("with the App Store Server API configured, a customer known from a receipt alone is refreshed first, within the request: Apple's JWS, then fresh data without a call",
          arguments: LedgerBackend.available)
    func refreshedBeforeAnswering(backend: LedgerBackend) async throws {
        let store = try B.store()
        try await B.withBridgeAndLedger(backend, store: store, configure: { try B.configuration(baseURL: $0) }) {
            client, _, ledger in
            let receipt = ServiceTestPKI.receipt(purchases: [
                ServiceTestPKI.purchase(L.original, original: L.original, product: "com.example.app.pro", day: 1)
            ])
            try await ledger.record(
                LedgerReceipt(receipt, bytes: Array("receipt".utf8), environment: .production, seenAt: ServiceTestPKI.now))
            let statuses = try await Self.get(client, "/inApps/v1/subscriptions/\(L.original)")
            #expect(statuses.status == 200, "refreshed from the simulator, not 5000001")
            let item = try #require(Self.groups(statuses.object)["21000001"]?.first)
            #expect(item["status"] as? Int == 1)
            let latest = try #require(item["signedTransactionInfo"] as? String)
            #expect((try CompactJWS(Array(latest.utf8))).payload["transactionId"]?.stringValue == L.renewal,
                    "the renewal only Apple knew")
            let history = try await Self.get(client, "/inApps/v2/history/\(L.original)")
            let ids = (history.object["signedTransactions"] as? [String] ?? []).compactMap { token in
                (try? CompactJWS(Array(token.utf8)))?.payload["transactionId"]?.stringValue
            }
            #expect(ids == [L.original, L.renewal])
            // Fresh now: answered from the ledger, Apple not asked again.
            let calls = store.requests.count
            #expect(try await Self.get(client, "/inApps/v2/refund/lookup/\(L.original)").status == 200)
            #expect(try await M.get(client, "/inApps/v1/transactions/\(L.renewal)", authorization: try M.token()).status == 200)
            #expect(store.requests.count == calls)
        }
    }

    @Test("history pages follow the ledger's change numbers: a refresh that signs everything again repeats nothing; a transaction learnt late, signed early, comes after the last revision",
          arguments: LedgerBackend.available)
    func historyAcrossRefreshesAndLateArrivals(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            _ = try await Self.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let first = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)")
                let firstPage = first.object["signedTransactions"] as? [String] ?? []
                #expect(firstPage.count == 20)
                let revision = try #require(first.object["revision"] as? String)
                // Apple signs every transaction again, unchanged, an hour later (an API refresh does).
                var again: [LedgerTransaction] = []
                for fields in Self.transactions() {
                    var fields = fields
                    fields["signedDate"] = JWSSamplePayload.timestamp(N.signed.addingTimeInterval(3600))
                    again.append(try #require(LedgerTransaction(
                        verified: try JWSTransactionPayload(fields: fields), jws: try Self.sign(fields),
                        environment: .production, source: .api)))
                }
                try await ledger.apply(LedgerUpdate(source: .api, transactions: again))
                let second = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)?revision=\(revision)")
                let secondPage = second.object["signedTransactions"] as? [String] ?? []
                #expect(secondPage.count == 4, "the rest, and nothing of the first page again")
                #expect(second.object["hasMore"] as? Bool == false)
                func ids(_ page: [String]) -> [String] {
                    page.compactMap { (try? CompactJWS(Array($0.utf8)))?.payload["transactionId"]?.stringValue }
                }
                let all = Self.transactions().compactMap { $0["transactionId"]?.stringValue }.sorted()
                #expect(ids(firstPage) + ids(secondPage) == all)
                let last = try #require(second.object["revision"] as? String)
                let quiet = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)?revision=\(last)")
                #expect((quiet.object["signedTransactions"] as? [String])?.isEmpty == true, "an unchanged re-signing is no change")
                // A renewal Apple signed a day before everything else, learnt only now (a notification retried late).
                var late = JWSSamplePayload.transaction(
                    bundleIdentifier: N.bundle, productID: "com.example.app.monthly", transactionID: "2000000000000060",
                    originalTransactionID: Self.monthly, purchaseDate: ServiceTestPKI.now.addingTimeInterval(-Self.day),
                    signedDate: N.signed.addingTimeInterval(-Self.day))
                late["transactionReason"] = .string("RENEWAL")
                let lateJWS = try Self.sign(late)
                try await ledger.apply(LedgerUpdate(source: .notification, transactions: [
                    try #require(LedgerTransaction(verified: try JWSTransactionPayload(fields: late), jws: lateJWS, environment: .production, source: .notification))
                ]))
                let changed = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)?revision=\(last)")
                #expect(changed.object["signedTransactions"] as? [String] == [lateJWS])
            }
        }
    }

    @Test("refund history pages follow the change numbers too: a refund learnt later comes after the last revision, however early its date",
          arguments: LedgerBackend.available)
    func refundLearntLate(backend: LedgerBackend) async throws {
        try await backend.withLedger { ledger in
            _ = try await Self.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let first = try await Self.get(client, "/inApps/v2/refund/lookup/\(Self.monthly)")
                let revision = try #require(first.object["revision"] as? String)
                // The first monthly transaction, refunded long ago, learnt now.
                var refunded = Self.transactions()[0]
                refunded["revocationDate"] = JWSSamplePayload.timestamp(ServiceTestPKI.now.addingTimeInterval(-300 * Self.day))
                refunded["revocationReason"] = .number(JSONNumber(1))
                refunded["signedDate"] = JWSSamplePayload.timestamp(N.signed.addingTimeInterval(60))
                let jws = try Self.sign(refunded)
                try await ledger.apply(LedgerUpdate(source: .notification, transactions: [
                    try #require(LedgerTransaction(verified: try JWSTransactionPayload(fields: refunded), jws: jws, environment: .production, source: .notification))
                ]))
                let after = try await Self.get(client, "/inApps/v2/refund/lookup/\(Self.monthly)?revision=\(revision)")
                #expect(after.object["signedTransactions"] as? [String] == [jws])
            }
        }
    }

    @Test("query names are percent-decoded like their values; a sign or a space in a number is refused")
    func encodedNamesAndStrictNumbers() async throws {
        try await ServiceHarness.withMemoryLedger { ledger in
            _ = try await Self.learnCustomer(into: ledger)
            try await H.withLiveService(try M.configuration(), ledger: ledger) { client, _ in
                let filtered = try await Self.get(client, "/inApps/v2/history/\(Self.monthly)?product%54ype=NON_CONSUMABLE")
                let ids = (filtered.object["signedTransactions"] as? [String] ?? []).compactMap {
                    (try? CompactJWS(Array($0.utf8)))?.payload["transactionId"]?.stringValue
                }
                #expect(ids == [Self.lifetime], "the encoded name is the filter")
                for bad in ["startDate=%2B5", "endDate=+5", "startDate=%205"] {
                    let answer = try await M.get(client, "/inApps/v2/history/\(Self.monthly)?\(bad)", authorization: try M.token())
                    #expect(answer.status == 400, "\(bad)")
                }
                let status = try await M.get(client, "/inApps/v1/subscriptions/\(Self.monthly)?status=%2B1", authorization: try M.token())
                #expect(status.status == 400)
            }
        }
    }

    @Test("stale data (a transaction the ledger holds no JWS for) is refreshed sooner than the refresh interval, but not at every request",
          arguments: LedgerBackend.available)
    func staleDataIsRefreshedSooner(backend: LedgerBackend) async throws {
        let store = try B.store()
        try await B.withBridgeAndLedger(backend, store: store, configure: { try B.configuration(baseURL: $0) }) {
            _, verifier, ledger in
            let query = LedgerQuery(
                environment: .production, bundleIdentifier: N.bundle, originalTransactionIdentifiers: [L.original])
            // Refreshed 90 s ago: fresh for the hour-long interval, due for stale data (older than a minute).
            try await ledger.apply(LedgerUpdate(
                source: .api, refresh: LedgerRefresh(query, at: ServiceTestPKI.now.addingTimeInterval(-90))))
            let calls = store.requests.count
            #expect(await verifier.refreshIfDue(query, now: ServiceTestPKI.now) == false)
            #expect(store.requests.count == calls, "fresh: Apple not asked")
            #expect(await verifier.refreshIfDue(query, now: ServiceTestPKI.now, stale: true))
            #expect(store.requests.count > calls, "stale: refreshed")
            let asked = store.requests.count
            #expect(await verifier.refreshIfDue(query, now: ServiceTestPKI.now, stale: true) == false)
            #expect(store.requests.count == asked, "just refreshed: not asked again")
        }
    }
}
