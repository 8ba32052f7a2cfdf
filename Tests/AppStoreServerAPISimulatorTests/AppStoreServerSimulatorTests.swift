import AppStoreJWS
import AppStorePKI
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import AppStoreServerAPISimulator
import ReceiptKitTesting
import Testing

/// `AppStoreServerSimulator` over real HTTP on 127.0.0.1 with AsyncHTTPClient: Apple's bearer-token rules, paging,
/// the endpoints' JSON against Apple's documented examples (`../shared/fixtures/app-store-server-api/`), signed
/// values verified with `JWSVerifier`, and scripted faults. Bearer tokens are minted here with swift-crypto.
@Suite("App Store Server API simulator")
struct AppStoreServerSimulatorTests {
    static let authority: Result<JWSTestAuthority, any Error> = Result { try JWSTestAuthority() }
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let bundle = "com.example.app"
    static let appAppleID: Int64 = 1_234_567
    static let keyID = "SIMKEY0001"
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let key = P256.Signing.PrivateKey()
    static let original = "1000000000000001"
    static let product = "com.example.app.pro"

    // MARK: Fixture and setup

    /// A store with the app, the key, a subscription of five periods (…01 to …05, one a day apart) and a
    /// purchase of another customer.
    static func store() throws -> SimulatedAppStore {
        let store = SimulatedAppStore()
        store.addApp(bundleIdentifier: Self.bundle, appAppleID: Self.appAppleID)
        store.register(SimulatedAPIKey(keyID: Self.keyID, issuerID: Self.issuer, publicKey: Self.key.publicKey))
        for period in 1...5 {
            try store.add(transaction: Self.transaction(period))
        }
        try store.add(
            transaction: JWSSamplePayload.transaction(
                bundleIdentifier: Self.bundle, productID: Self.product, transactionID: "3000000000000001",
                purchaseDate: Self.now.addingTimeInterval(-86_400), signedDate: Self.now))
        return store
    }

    /// The subscription's period `period` (1-based): purchased `6 - period` 30-day periods before `now`, so the
    /// fifth is active.
    static func transaction(_ period: Int) -> [String: JSONValue] {
        let purchased = Self.now.addingTimeInterval(-Double(6 - period) * 30 * 86_400 + 86_400)
        return JWSSamplePayload.transaction(
            bundleIdentifier: Self.bundle, productID: Self.product, transactionID: String(format: "10000000000000%02d", period),
            originalTransactionID: Self.original, purchaseDate: purchased, signedDate: purchased)
    }

    static func withSimulator<T: Sendable>(
        _ store: SimulatedAppStore? = nil,
        environment: AppStoreEnvironment = .production,
        _ body: @Sendable (SimulatedAppStore, APIClient) async throws -> T
    ) async throws -> T {
        let store = try store ?? Self.store()
        let simulator = AppStoreServerSimulator(
            store: store, authority: try Self.authority.get(), environment: environment, now: { Self.now })
        return try await simulator.run { baseURL in
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let value = try await body(store, APIClient(http: client, baseURL: baseURL))
                try await client.shutdown()
                return value
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    // MARK: Tokens

    /// An App Store Server API bearer token as Apple documents it, with `edit` applied to header and claims.
    static func token(
        key: P256.Signing.PrivateKey = Self.key,
        issuedAt: Date = Self.now,
        lifetime: TimeInterval = 1200,
        edit: (inout [String: JSONValue], inout [String: JSONValue]) -> Void = { _, _ in },
        signature: (([UInt8]) throws -> [UInt8])? = nil
    ) throws -> String {
        var header: [String: JSONValue] = ["alg": .string("ES256"), "kid": .string(Self.keyID), "typ": .string("JWT")]
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer),
            "iat": .number(JSONNumber(Int64(issuedAt.timeIntervalSince1970))),
            "exp": .number(JSONNumber(Int64(issuedAt.timeIntervalSince1970 + lifetime))),
            "aud": .string("appstoreconnect-v1"),
            "bid": .string(Self.bundle),
        ]
        edit(&header, &claims)
        let input = Self.base64URL(JSONValue.object(header).serialized) + "." + Self.base64URL(JSONValue.object(claims).serialized)
        let bytes = try signature?(Array(input.utf8)) ?? Array(key.signature(for: Array(input.utf8)).rawRepresentation)
        return input + "." + Self.base64URL(bytes)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    // MARK: HTTP

    struct APIResponse: Sendable {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]

        func object() throws -> [String: JSONValue] {
            try #require(try JSONValue(jsonEncoded: self.body).objectValue)
        }
    }

    struct APIClient: Sendable {
        let http: HTTPClient
        let baseURL: String

        func send(
            _ method: HTTPMethod, _ path: String, body: [UInt8]? = nil, token: String? = nil,
            timeout: TimeAmount = .seconds(30)
        ) async throws -> APIResponse {
            var request = HTTPClientRequest(url: self.baseURL + path)
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer " + (try token ?? AppStoreServerSimulatorTests.token()))
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await self.http.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            return APIResponse(status: Int(response.status.code), headers: headers, body: Array(bytes.readableBytesView))
        }
    }

    static func verifier() throws -> JWSVerifier {
        JWSVerifier(
            policy: JWSVerificationPolicy(
                anchors: AppStoreTrustAnchors([try Self.authority.get().root.certificate]),
                bundleIdentifier: Self.bundle, environment: .production),
            cache: nil)
    }

    /// Verifies every signed transaction and returns their payloads.
    static func verifiedTransactions(_ values: [JSONValue]?) async throws -> [JWSTransactionPayload] {
        var payloads: [JWSTransactionPayload] = []
        for value in values ?? [] {
            let result = try await Self.verifier().verify(try #require(value.stringValue), as: JWSTransactionPayload.self, now: Self.now)
            #expect(result.isValid, "\(result.failures)")
            payloads.append(result.payload)
        }
        return payloads
    }

    static func ids(_ payloads: [JWSTransactionPayload]) -> [String] {
        payloads.compactMap { $0.fields.string("transactionId") }
    }

    // MARK: Apple's documented examples

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/app-store-server-api")
    static let fixturesAvailable = FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent("transactionHistoryResponse.json").path)
    static let fixturesSkipped = Comment(rawValue: "../shared/fixtures/app-store-server-api is absent: comparison with Apple's examples skipped")

    static func fixture(_ name: String) throws -> [String: JSONValue] {
        try #require(try JSONValue(jsonEncoded: Array(Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".json")))).objectValue)
    }

    // MARK: Paging

    @Test func historyFollowsRevisionThroughEveryPageInOrderOfChange() async throws {
        try await Self.withSimulator { store, client in
            store.pageSize = 2
            var ids: [String] = []
            var pages = 0
            var path = "/inApps/v2/history/1000000000000003"
            var revision = ""
            while true {
                let response = try await client.send(.GET, path)
                #expect(response.status == 200)
                let object = try response.object()
                ids += Self.ids(try await Self.verifiedTransactions(object["signedTransactions"]?.arrayValue))
                pages += 1
                revision = try #require(object["revision"]?.stringValue)
                #expect(object["bundleId"] == .string(Self.bundle))
                #expect(object["appAppleId"] == .number(JSONNumber(Self.appAppleID)))
                #expect(object["environment"] == .string("Production"))
                guard object["hasMore"] == .bool(true) else { break }
                path = "/inApps/v2/history/1000000000000003?revision=\(revision)"
                #expect(pages < 10)
            }
            #expect(ids == (1...5).map { String(format: "10000000000000%02d", $0) })
            #expect(pages == 3)
            #expect(store.requestCount(.transactionHistory) == 3)

            // The last revision brings only what changed since: nothing, then the refunded period.
            let unchanged = try await client.send(.GET, "/inApps/v2/history/\(Self.original)?revision=\(revision)").object()
            #expect(unchanged["signedTransactions"] == .array([]))
            #expect(unchanged["hasMore"] == .bool(false))
            store.revoke(transactionID: "1000000000000002", at: Self.now.addingTimeInterval(-60), reason: 1)
            let changed = try await client.send(.GET, "/inApps/v2/history/\(Self.original)?revision=\(revision)").object()
            let refunded = try await Self.verifiedTransactions(changed["signedTransactions"]?.arrayValue)
            #expect(Self.ids(refunded) == ["1000000000000002"])
            #expect(refunded.first?.fields.integer("revocationReason") == 1)
        }
    }

    @Test func historyAppliesApplesFilters() async throws {
        try await Self.withSimulator { store, client in
            store.revoke(transactionID: "1000000000000004", at: Self.now, reason: 0)
            func ids(_ query: String) async throws -> [String] {
                let response = try await client.send(.GET, "/inApps/v2/history/\(Self.original)?\(query)")
                #expect(response.status == 200)
                return Self.ids(try await Self.verifiedTransactions(try response.object()["signedTransactions"]?.arrayValue))
            }
            let all = (1...5).map { String(format: "10000000000000%02d", $0) }
            let descending = try await ids("sort=DESCENDING")
            #expect(descending == ["1000000000000004", "1000000000000005", "1000000000000003", "1000000000000002", "1000000000000001"])
            let revoked = try await ids("revoked=true")
            #expect(revoked == ["1000000000000004"])
            let notRevoked = try await ids("revoked=false")
            #expect(notRevoked == all.filter { $0 != "1000000000000004" })
            let consumables = try await ids("productType=CONSUMABLE")
            #expect(consumables.isEmpty)
            let subscriptions = try await ids("productType=AUTO_RENEWABLE&productId=\(Self.product)")
            #expect(subscriptions.count == 5)
            let otherProduct = try await ids("productId=other")
            #expect(otherProduct.isEmpty)
            let start = Int64(Self.now.addingTimeInterval(-70 * 86_400).timeIntervalSince1970 * 1000)
            let end = Int64(Self.now.timeIntervalSince1970 * 1000)
            // Purchased within [start, end): the fourth and fifth periods, in order of change (the fourth was refunded).
            let window = try await ids("startDate=\(start)&endDate=\(end)")
            #expect(window == ["1000000000000005", "1000000000000004"])
        }
    }

    @Test(arguments: [
        ("sort=SIDEWAYS", Int64(4_000_021)), ("revoked=maybe", 4_000_030), ("productType=GIFT", 4_000_022),
        ("startDate=yesterday", 4_000_015), ("endDate=-1", 4_000_016), ("startDate=20&endDate=10", 4_000_013),
        ("revision=bm90LWEtcmV2aXNpb24", 4_000_005),
    ])
    func historyRefusesABadQueryWithApplesCode(query: String, code: Int64) async throws {
        try await Self.withSimulator { _, client in
            let response = try await client.send(.GET, "/inApps/v2/history/\(Self.original)?\(query)")
            #expect(response.status == 400)
            #expect(try response.object()["errorCode"] == .number(JSONNumber(code)))
        }
    }

    // MARK: Apple's errors

    @Test(.enabled(if: Self.fixturesAvailable, Self.fixturesSkipped))
    func unknownAndInvalidTransactionIDsGetApplesBodies() async throws {
        try await Self.withSimulator { store, client in
            let missing = try await client.send(.GET, "/inApps/v1/transactions/9999999999999999")
            #expect(missing.status == 404)
            #expect(missing.headers["content-type"] == "application/json")
            #expect(try missing.object() == Self.fixture("transactionIdNotFoundError"))
            #expect(String(decoding: missing.body, as: UTF8.self) == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
            let invalid = try await client.send(.GET, "/inApps/v2/history/not-a-number")
            #expect(invalid.status == 400)
            #expect(try invalid.object() == Self.fixture("invalidTransactionIdError"))
            // Another environment's or another app's transaction is not found either.
            try store.add(
                transaction: JWSSamplePayload.transaction(
                    bundleIdentifier: Self.bundle, productID: Self.product, transactionID: "4000000000000001",
                    environment: .sandbox, purchaseDate: Self.now, signedDate: Self.now))
            try store.add(
                transaction: JWSSamplePayload.transaction(
                    bundleIdentifier: "com.example.other", productID: Self.product, transactionID: "4000000000000002",
                    purchaseDate: Self.now, signedDate: Self.now))
            for id in ["4000000000000001", "4000000000000002"] {
                #expect(try await client.send(.GET, "/inApps/v1/subscriptions/\(id)").status == 404)
            }
        }
    }

    // MARK: Bearer tokens

    enum BadToken: String, CaseIterable, Sendable {
        case wrongKeyID, wrongIssuer, wrongAudience, unknownBundle, bundleNotServedByKey, expired, lifetimeOverAnHour
        case issuedInTheFuture, badSignature, otherKeysSignature, algorithmNone, algorithmHS256, noType
        case noIssuedAtOverAnHourAhead, issuedAtNotANumber
        case notBearer, malformed
    }

    static func token(_ variant: BadToken) throws -> (authorization: String, refusal: String) {
        switch variant {
        case .wrongKeyID: return ("Bearer " + (try Self.token(edit: { header, _ in header["kid"] = .string("OTHERKEY") })), "unknown_key")
        case .wrongIssuer: return ("Bearer " + (try Self.token(edit: { _, claims in claims["iss"] = .string("someone-else") })), "issuer")
        case .wrongAudience: return ("Bearer " + (try Self.token(edit: { _, claims in claims["aud"] = .string("appstoreconnect-v2") })), "audience")
        case .unknownBundle: return ("Bearer " + (try Self.token(edit: { _, claims in claims["bid"] = .string("com.example.other") })), "bundle")
        case .bundleNotServedByKey: return ("Bearer " + (try Self.token(edit: { header, _ in header["kid"] = .string("NARROWKEY") })), "bundle")
        case .expired: return ("Bearer " + (try Self.token(issuedAt: Self.now.addingTimeInterval(-1800), lifetime: 1200)), "expired")
        case .lifetimeOverAnHour: return ("Bearer " + (try Self.token(lifetime: 3601)), "lifetime_too_long")
        case .issuedInTheFuture: return ("Bearer " + (try Self.token(issuedAt: Self.now.addingTimeInterval(600))), "issued_in_future")
        case .badSignature:
            return ("Bearer " + (try Self.token(signature: { input in
                var bytes = Array(try Self.key.signature(for: input).rawRepresentation)
                bytes[0] ^= 0x01
                return bytes
            })), "signature")
        case .otherKeysSignature: return ("Bearer " + (try Self.token(key: P256.Signing.PrivateKey())), "signature")
        case .algorithmNone:
            return ("Bearer " + (try Self.token(edit: { header, _ in header["alg"] = .string("none") }, signature: { _ in [] })), "algorithm")
        case .algorithmHS256: return ("Bearer " + (try Self.token(edit: { header, _ in header["alg"] = .string("HS256") })), "algorithm")
        case .noType: return ("Bearer " + (try Self.token(edit: { header, _ in header["typ"] = nil })), "type")
        case .noIssuedAtOverAnHourAhead:
            // Without `iat` (as Apple's own library signs), the lifetime counts from now.
            return ("Bearer " + (try Self.token(lifetime: 3700, edit: { _, claims in claims["iat"] = nil })), "lifetime_too_long")
        case .issuedAtNotANumber:
            return ("Bearer " + (try Self.token(edit: { _, claims in claims["iat"] = .string("now") })), "malformed")
        case .notBearer: return ("Basic " + (try Self.token()), "missing")
        case .malformed: return ("Bearer abc.def", "malformed")
        }
    }

    @Test(arguments: BadToken.allCases)
    func badTokenIsRefusedWith401AndNoBody(_ variant: BadToken) async throws {
        let store = try Self.store()
        store.addApp(bundleIdentifier: "com.example.second", appAppleID: 7)
        store.register(
            SimulatedAPIKey(keyID: "NARROWKEY", issuerID: Self.issuer, publicKey: Self.key.publicKey, bundleIdentifiers: ["com.example.second"]))
        try await Self.withSimulator(store) { store, client in
            let (authorization, refusal) = try Self.token(variant)
            var request = HTTPClientRequest(url: client.baseURL + "/inApps/v2/history/\(Self.original)")
            request.headers.add(name: "Authorization", value: authorization)
            let response = try await client.http.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1024)
            #expect(response.status.code == 401)
            #expect(body.readableBytes == 0)
            #expect(store.requests.last?.tokenRefusal == refusal)
            #expect(store.requests.last?.status == 401)
        }
    }

    @Test func validTokenEdgesAreAccepted() async throws {
        try await Self.withSimulator { store, client in
            // Exactly an hour, issued a little ahead (clock skew), with a fractional time, or without `iat` and
            // expiring within the hour (as Apple's own Python library signs them): all Apple-valid.
            for token in [try Self.token(lifetime: 3600), try Self.token(issuedAt: Self.now.addingTimeInterval(30)),
                          try Self.token(lifetime: 300, edit: { _, claims in claims["iat"] = nil }),
                          try Self.token(edit: { _, claims in claims["exp"] = .number(JSONNumber(1_750_000_100.5) ?? JSONNumber(0)) })] {
                #expect(try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)", token: token).status == 200)
            }
            // A revoked key is refused from then on.
            store.revokeKey(keyID: Self.keyID)
            #expect(try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)").status == 401)
            #expect(store.requests.last?.tokenRefusal == "unknown_key")
        }
    }

    // MARK: Signed values

    @Test func signedValuesVerifyWithTheTestRootAndCarryTheSimulatorsClock() async throws {
        try await Self.withSimulator { store, client in
            let info = try await client.send(.GET, "/inApps/v1/transactions/1000000000000005").object()
            let transaction = try await Self.verifiedTransactions([try #require(info["signedTransactionInfo"])])
            #expect(transaction.first?.fields.integer("signedDate") == Int64(Self.now.timeIntervalSince1970 * 1000))

            let statuses = try await client.send(.GET, "/inApps/v1/subscriptions/1000000000000002").object()
            let group = try #require(statuses["data"]?.arrayValue?.first?.objectValue)
            #expect(group["subscriptionGroupIdentifier"] == .string("21000001"))
            let last = try #require(group["lastTransactions"]?.arrayValue?.first?.objectValue)
            #expect(last["status"] == .number(JSONNumber(1)))
            #expect(last["originalTransactionId"] == .string(Self.original))
            let latest = try await Self.verifiedTransactions([try #require(last["signedTransactionInfo"])])
            #expect(Self.ids(latest) == ["1000000000000005"])
            let renewal = try await Self.verifier().verify(
                try #require(last["signedRenewalInfo"]?.stringValue), as: JWSRenewalInfoPayload.self, now: Self.now)
            #expect(renewal.isValid, "\(renewal.failures)")

            // Revoked → 5; a status filter leaves it out or in.
            store.revoke(transactionID: "1000000000000005", at: Self.now)
            let revoked = try await client.send(.GET, "/inApps/v1/subscriptions/\(Self.original)").object()
            #expect(revoked["data"]?.arrayValue?.first?.objectValue?["lastTransactions"]?.arrayValue?.first?.objectValue?["status"] == .number(JSONNumber(5)))
            let active = try await client.send(.GET, "/inApps/v1/subscriptions/\(Self.original)?status=1").object()
            #expect(active["data"] == .array([]))
            let invalid = try await client.send(.GET, "/inApps/v1/subscriptions/\(Self.original)?status=9")
            #expect(try invalid.object()["errorCode"] == .number(JSONNumber(4_000_031)))
        }
    }

    @Test func appTransactionInfoAnswersForAnyIdOfTheCustomerOfTheApp() async throws {
        try await Self.withSimulator { store, client in
            var appTransaction = JWSSamplePayload.appTransaction(
                bundleIdentifier: Self.bundle, appAppleID: Self.appAppleID, signedDate: Self.now.addingTimeInterval(-86_400))
            appTransaction["appTransactionId"] = .string("704000000000000001")
            store.setAppTransaction(appTransaction, customer: Self.original)
            var otherApp = appTransaction
            otherApp["bundleId"] = .string("com.example.other")
            otherApp["appTransactionId"] = .string("704000000000000002")
            store.setAppTransaction(otherApp, customer: "3000000000000001")

            for id in ["1000000000000003", Self.original, "704000000000000001"] {
                let answer = try await client.send(.GET, "/inApps/v1/transactions/appTransactions/\(id)")
                #expect(answer.status == 200, "\(id)")
                let signed = try #require(try answer.object()["signedAppTransactionInfo"]?.stringValue)
                let verified = try await Self.verifier().verify(signed, as: AppTransactionPayload.self, now: Self.now)
                #expect(verified.isValid, "\(verified.failures)")
                #expect(verified.payload.appTransactionID == "704000000000000001")
                #expect(verified.payload.bundleIdentifier == Self.bundle)
                #expect(verified.payload.signedDate == AppStoreTimestamp(Self.now), "signed when answered")
            }
            // The other customer's app transaction is another app's: none for this one; unknown and invalid ids.
            for (id, status, code) in [
                ("3000000000000001", 404, 4_040_019), ("704000000000000002", 404, 4_040_010),
                ("9999999999999999", 404, 4_040_010), ("abc", 400, 4_000_006),
            ] {
                let answer = try await client.send(.GET, "/inApps/v1/transactions/appTransactions/\(id)")
                #expect(answer.status == status, "\(id)")
                #expect(try answer.object()["errorCode"] == .number(JSONNumber(Int64(code))), "\(id)")
            }
            #expect(store.requestCount(.appTransactionInfo) == 7)
            // Get Transaction Info beside it still answers at its own path.
            #expect(try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)").status == 200)
        }
    }

    @Test func refundHistoryPagesThroughRefundsInTheirOrder() async throws {
        try await Self.withSimulator { store, client in
            store.pageSize = 1
            store.revoke(transactionID: "1000000000000003", at: Self.now.addingTimeInterval(-120))
            store.revoke(transactionID: "1000000000000001", at: Self.now.addingTimeInterval(-60))
            var ids: [String] = []
            var path = "/inApps/v2/refund/lookup/1000000000000005"
            for _ in 0..<3 {
                let object = try await client.send(.GET, path).object()
                ids += Self.ids(try await Self.verifiedTransactions(object["signedTransactions"]?.arrayValue))
                guard object["hasMore"] == .bool(true), let revision = object["revision"]?.stringValue else { break }
                path = "/inApps/v2/refund/lookup/1000000000000005?revision=\(revision)"
            }
            #expect(ids == ["1000000000000003", "1000000000000001"])
        }
    }

    // MARK: The other endpoints

    @Test func orderLookupConsumptionExtensionAndAppAccountToken() async throws {
        try await Self.withSimulator { store, client in
            store.addOrder(orderID: "MK5TTTVWJH", transactionIDs: ["1000000000000005"])
            let order = try await client.send(.GET, "/inApps/v1/lookup/MK5TTTVWJH").object()
            #expect(order["status"] == .number(JSONNumber(0)))
            #expect(Self.ids(try await Self.verifiedTransactions(order["signedTransactions"]?.arrayValue)) == ["1000000000000005"])
            let unknown = try await client.send(.GET, "/inApps/v1/lookup/NOSUCHORDER").object()
            #expect(unknown["status"] == .number(JSONNumber(1)))

            // V2: Apple's names and milliunits; V1 (integer codes) at its own path.
            let consumption = JSONValue.object([
                "customerConsented": .bool(true), "deliveryStatus": .string("DELIVERED"),
                "sampleContentProvided": .bool(false), "consumptionPercentage": .number(JSONNumber(25_000)),
                "refundPreference": .string("GRANT_PRORATED"),
            ]).serialized
            let accepted = try await client.send(.PUT, "/inApps/v2/transactions/consumption/1000000000000005", body: consumption)
            #expect(accepted.status == 202)
            #expect(accepted.body.isEmpty)
            #expect(store.consumptionInformation(transactionID: "1000000000000005")?["refundPreference"] == .string("GRANT_PRORATED"))
            for (members, code) in [
                (["customerConsented": JSONValue.bool(false)], 4_000_035),
                (["customerConsented": .bool(true), "deliveryStatus": .number(JSONNumber(0)), "sampleContentProvided": .bool(false)], 4_000_036),
                (["customerConsented": .bool(true), "deliveryStatus": .string("DELIVERED")], 4_000_041),
                (["customerConsented": .bool(true), "deliveryStatus": .string("DELIVERED"), "sampleContentProvided": .bool(false),
                  "consumptionPercentage": .number(JSONNumber(100_001))], 4_000_000),
                (["customerConsented": .bool(true), "deliveryStatus": .string("DELIVERED"), "sampleContentProvided": .bool(false),
                  "refundPreference": .number(JSONNumber(1))], 4_000_000),
            ] {
                let refused = try await client.send(
                    .PUT, "/inApps/v2/transactions/consumption/1000000000000005", body: JSONValue.object(members).serialized)
                #expect(refused.status == 400)
                #expect(try refused.object()["errorCode"] == .number(JSONNumber(Int64(code))), "\(members)")
            }
            let v1 = JSONValue.object(["customerConsented": .bool(true), "deliveryStatus": .number(JSONNumber(0))]).serialized
            let acceptedV1 = try await client.send(.PUT, "/inApps/v1/transactions/consumption/1000000000000005", body: v1)
            #expect(acceptedV1.status == 202)
            #expect(store.consumptionInformation(transactionID: "1000000000000005")?["deliveryStatus"] == .number(JSONNumber(0)))
            let refused = try await client.send(
                .PUT, "/inApps/v1/transactions/consumption/1000000000000005",
                body: JSONValue.object(["customerConsented": .bool(false)]).serialized)
            #expect(try refused.object()["errorCode"] == .number(JSONNumber(4_000_035)))

            let expires = try #require(store.transaction(id: "1000000000000005")?.integer("expiresDate"))
            let extend = JSONValue.object([
                "extendByDays": .number(JSONNumber(7)), "extendReasonCode": .number(JSONNumber(1)),
                "requestIdentifier": .string("a8d1c6f4-6a2e-4c3e-9a49-2a5b4cf5d3b1"),
            ]).serialized
            let extended = try await client.send(.PUT, "/inApps/v1/subscriptions/extend/\(Self.original)", body: extend).object()
            #expect(extended["success"] == .bool(true))
            #expect(extended["effectiveDate"] == .number(JSONNumber(expires + 7 * 86_400_000)))
            #expect(store.transaction(id: "1000000000000005")?.integer("expiresDate") == expires + 7 * 86_400_000)
            let notOriginal = try await client.send(.PUT, "/inApps/v1/subscriptions/extend/1000000000000005", body: extend)
            #expect(try notOriginal.object()["errorCode"] == .number(JSONNumber(4_000_008)))
            let tooLong = JSONValue.object([
                "extendByDays": .number(JSONNumber(91)), "extendReasonCode": .number(JSONNumber(1)),
                "requestIdentifier": .string("x"),
            ]).serialized
            let tooLongAnswer = try await client.send(.PUT, "/inApps/v1/subscriptions/extend/\(Self.original)", body: tooLong)
            #expect(try tooLongAnswer.object()["errorCode"] == .number(JSONNumber(4_000_009)))

            let uuid = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
            let set = try await client.send(
                .PUT, "/inApps/v1/transactions/\(Self.original)/appAccountToken",
                body: JSONValue.object(["appAccountToken": .string(uuid)]).serialized)
            #expect(set.status == 200)
            #expect(store.transaction(id: "1000000000000003")?.string("appAccountToken") == uuid.lowercased())
            let badUUID = try await client.send(
                .PUT, "/inApps/v1/transactions/\(Self.original)/appAccountToken",
                body: JSONValue.object(["appAccountToken": .string("not-a-uuid")]).serialized)
            #expect(try badUUID.object()["errorCode"] == .number(JSONNumber(4_000_183)))
            let renewal = try await client.send(
                .PUT, "/inApps/v1/transactions/1000000000000002/appAccountToken",
                body: JSONValue.object(["appAccountToken": .string(uuid)]).serialized)
            #expect(try renewal.object()["errorCode"] == .number(JSONNumber(4_000_187)))
        }
    }

    @Test func notificationHistoryAndTestNotifications() async throws {
        try await Self.withSimulator { store, client in
            store.pageSize = 2
            let signer = try Self.authority.get()
            for index in 0..<3 {
                let sent = Self.now.addingTimeInterval(Double(index - 10) * 3600)
                let signedTransaction = try JWSMinter.sign(Self.transaction(5), signer: signer.leaf, chain: signer.chain)
                store.addNotification(
                    JWSSamplePayload.notification(
                        type: index == 1 ? .didRenew : .subscribed, notificationUUID: "uuid-\(index)",
                        bundleIdentifier: Self.bundle, appAppleID: Self.appAppleID, signedDate: sent,
                        signedTransactionInfo: signedTransaction),
                    attempts: [SimulatedSendAttempt(date: sent, result: index == 2 ? "TIMED_OUT" : "SUCCESS")])
            }
            let start = Int64(Self.now.addingTimeInterval(-86_400).timeIntervalSince1970 * 1000)
            let end = Int64(Self.now.timeIntervalSince1970 * 1000)
            func history(_ extra: [String: JSONValue] = [:], token: String? = nil) async throws -> APIResponse {
                var body: [String: JSONValue] = ["startDate": .number(JSONNumber(start)), "endDate": .number(JSONNumber(end))]
                body.merge(extra) { _, new in new }
                let query = token.map { "?paginationToken=\($0)" } ?? ""
                return try await client.send(.POST, "/inApps/v1/notifications/history" + query, body: JSONValue.object(body).serialized)
            }
            let first = try await history().object()
            #expect(first["hasMore"] == .bool(true))
            #expect(first["notificationHistory"]?.arrayValue?.count == 2)
            let token = try #require(first["paginationToken"]?.stringValue)
            let second = try await history(token: token).object()
            #expect(second["hasMore"] == .bool(false))
            #expect(second["paginationToken"] == nil)
            let entry = try #require(second["notificationHistory"]?.arrayValue?.first?.objectValue)
            #expect(entry["sendAttempts"]?.arrayValue?.first?.objectValue?["sendAttemptResult"] == .string("TIMED_OUT"))
            let verified = try await Self.verifier().verifyNotification(try #require(entry["signedPayload"]?.stringValue), now: Self.now)
            #expect(verified.isValid)
            #expect(verified.notification.payload.fields.string("notificationUUID") == "uuid-2")

            let renewals = try await history(["notificationType": .string("DID_RENEW")]).object()
            #expect(renewals["notificationHistory"]?.arrayValue?.count == 1)
            let failures = try await history(["onlyFailures": .bool(true)]).object()
            #expect(failures["notificationHistory"]?.arrayValue?.count == 1)
            // Every notification of the customer, whichever of its transactions is named: three, on two pages.
            let byTransaction = try await history(["transactionId": .string("1000000000000002")]).object()
            #expect(byTransaction["notificationHistory"]?.arrayValue?.count == 2)
            #expect(byTransaction["hasMore"] == .bool(true))
            let both = try await history(["transactionId": .string(Self.original), "notificationType": .string("DID_RENEW")])
            #expect(try both.object()["errorCode"] == .number(JSONNumber(4_000_019)))
            let tooOld = try await history(["startDate": .number(JSONNumber(start - 200 * 86_400_000))])
            #expect(try tooOld.object()["errorCode"] == .number(JSONNumber(4_000_012)))
            let badToken = try await history(token: "bm9wZQ")
            #expect(try badToken.object()["errorCode"] == .number(JSONNumber(4_000_014)))

            store.testNotificationResult = "NO_RESPONSE"
            let requested = try await client.send(.POST, "/inApps/v1/notifications/test").object()
            let testToken = try #require(requested["testNotificationToken"]?.stringValue)
            let status = try await client.send(.GET, "/inApps/v1/notifications/test/\(testToken)").object()
            #expect(status["sendAttempts"]?.arrayValue?.first?.objectValue?["sendAttemptResult"] == .string("NO_RESPONSE"))
            let test = try await Self.verifier().verifyNotification(try #require(status["signedPayload"]?.stringValue), now: Self.now)
            #expect(test.notification.isValid, "\(test.notification.failures)")
            #expect(test.notification.payload.fields.string("notificationType") == "TEST")
            let missing = try await client.send(.GET, "/inApps/v1/notifications/test/no-such-token")
            #expect(missing.status == 404)
            #expect(try missing.object()["errorCode"] == .number(JSONNumber(4_040_008)))
        }
    }

    /// Each answer has the members of Apple's documented example of it.
    @Test(.enabled(if: Self.fixturesAvailable, Self.fixturesSkipped))
    func answersHaveTheMembersOfApplesExamples() async throws {
        try await Self.withSimulator { store, client in
            store.pageSize = 2
            store.revoke(transactionID: "1000000000000001", at: Self.now)
            store.revoke(transactionID: "1000000000000002", at: Self.now)
            store.revoke(transactionID: "1000000000000003", at: Self.now)
            store.addOrder(orderID: "MK5TTTVWJH", transactionIDs: ["1000000000000005"])
            store.setAppTransaction(
                JWSSamplePayload.appTransaction(bundleIdentifier: Self.bundle, appAppleID: Self.appAppleID, signedDate: Self.now),
                customer: Self.original)
            store.addNotification(
                JWSSamplePayload.notification(type: .subscribed, notificationUUID: "a", bundleIdentifier: Self.bundle, signedDate: Self.now),
                attempts: [SimulatedSendAttempt(date: Self.now.addingTimeInterval(-60))])
            store.addNotification(
                JWSSamplePayload.notification(type: .subscribed, notificationUUID: "b", bundleIdentifier: Self.bundle, signedDate: Self.now),
                attempts: [SimulatedSendAttempt(date: Self.now.addingTimeInterval(-50))])
            store.addNotification(
                JWSSamplePayload.notification(type: .subscribed, notificationUUID: "c", bundleIdentifier: Self.bundle, signedDate: Self.now),
                attempts: [SimulatedSendAttempt(date: Self.now.addingTimeInterval(-40))])
            let window = JSONValue.object([
                "startDate": .number(JSONNumber(Int64(Self.now.timeIntervalSince1970 * 1000) - 3_600_000)),
                "endDate": .number(JSONNumber(Int64(Self.now.timeIntervalSince1970 * 1000))),
            ]).serialized
            let token = try await client.send(.POST, "/inApps/v1/notifications/test").object()
            let extend = JSONValue.object([
                "extendByDays": .number(JSONNumber(1)), "extendReasonCode": .number(JSONNumber(0)),
                "requestIdentifier": .string("r"),
            ]).serialized
            let cases: [(String, APIResponse)] = [
                ("transactionHistoryResponse", try await client.send(.GET, "/inApps/v2/history/\(Self.original)")),
                ("transactionInfoResponse", try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")),
                ("appTransactionInfoResponse", try await client.send(.GET, "/inApps/v1/transactions/appTransactions/\(Self.original)")),
                ("getAllSubscriptionStatusesResponse", try await client.send(.GET, "/inApps/v1/subscriptions/\(Self.original)")),
                ("lookupOrderIdResponse", try await client.send(.GET, "/inApps/v1/lookup/MK5TTTVWJH")),
                ("getRefundHistoryResponse", try await client.send(.GET, "/inApps/v2/refund/lookup/\(Self.original)")),
                ("getNotificationHistoryResponse", try await client.send(.POST, "/inApps/v1/notifications/history", body: window)),
                ("requestTestNotificationResponse", try await client.send(.POST, "/inApps/v1/notifications/test")),
                ("getTestNotificationStatusResponse", try await client.send(
                    .GET, "/inApps/v1/notifications/test/\(try #require(token["testNotificationToken"]?.stringValue))")),
                ("extendSubscriptionRenewalDateResponse", try await client.send(.PUT, "/inApps/v1/subscriptions/extend/\(Self.original)", body: extend)),
            ]
            for (name, response) in cases {
                #expect(response.status == 200, "\(name)")
                let example = try Self.fixture(name)
                let answer = try response.object()
                #expect(Set(answer.keys) == Set(example.keys), "\(name)")
                for (key, value) in example {
                    #expect(Self.shape(answer[key]) == Self.shape(value), "\(name).\(key)")
                }
            }
        }
    }

    /// A JSON value's shape: its kind, and for objects the members' shapes, for arrays the first element's.
    static func shape(_ value: JSONValue?) -> String {
        switch value {
        case nil: "absent"
        case .null?: "null"
        case .bool?: "bool"
        case .number?: "number"
        case .string?: "string"
        case .array(let elements)?: "[" + (elements.first.map { Self.shape($0) } ?? "") + "]"
        case .object(let members)?: "{" + members.keys.sorted().map { "\($0):\(Self.shape(members[$0]))" }.joined(separator: ",") + "}"
        }
    }

    // MARK: Faults

    @Test func rateLimitAnswers429WithRetryAfterForTheNextRequestsOnly() async throws {
        try await Self.withSimulator { store, client in
            store.inject(.rateLimited(retryAfterSeconds: 7), for: .transactionHistory, times: 2)
            for _ in 0..<2 {
                let limited = try await client.send(.GET, "/inApps/v2/history/\(Self.original)")
                #expect(limited.status == 429)
                #expect(limited.headers["retry-after"] == "7")
                #expect(try limited.object()["errorCode"] == .number(JSONNumber(4_290_000)))
            }
            // Another endpoint is not affected, and the third history request is answered.
            #expect(try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)").status == 200)
            #expect(try await client.send(.GET, "/inApps/v2/history/\(Self.original)").status == 200)
            #expect(store.requestCount(.transactionHistory) == 3)
            #expect(store.requestCount(.transactionInfo) == 1)
            #expect(store.requestCount(.refundHistory) == 0)
        }
    }

    @Test func serverErrorsAndAppleErrorsAreAnsweredAsScripted() async throws {
        try await Self.withSimulator { store, client in
            store.inject(.serverError(status: 503), times: 1)
            store.inject(.appleError(SimulatedAPIError(status: 403, errorCode: 4_030_000, errorMessage: "Forbidden.")), times: nil)
            let failed = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            #expect(failed.status == 503)
            #expect(try failed.object()["errorCode"] == .number(JSONNumber(5_000_000)))
            for _ in 0..<2 {
                let forbidden = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
                #expect(forbidden.status == 403)
                #expect(try forbidden.object() == ["errorCode": .number(JSONNumber(4_030_000)), "errorMessage": .string("Forbidden.")])
            }
            // A bad token is still a 401 while errors are scripted: the token is checked first.
            let unauthorized = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)", token: try Self.token(lifetime: 7200))
            #expect(unauthorized.status == 401)
            store.clearFaults()
            #expect(try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)").status == 200)
        }
    }

    @Test func delayOutlastsAClientTimeoutThenAnswers() async throws {
        try await Self.withSimulator { store, client in
            store.inject(.delay(.milliseconds(1500)), for: .transactionInfo)
            await #expect(throws: HTTPClientError.self) {
                _ = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)", timeout: .milliseconds(200))
            }
            let answered = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            #expect(answered.status == 200)
        }
    }

    @Test func aHeldRequestIsAnsweredWhenItsGateOpensOrItsLimitPasses() async throws {
        try await Self.withSimulator { store, client in
            let gate = SimulatedGate()
            store.inject(.hold(gate), for: .transactionInfo)
            async let held = client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            #expect(await gate.waitForArrivals(1))
            #expect(gate.heldCount == 1)
            #expect(store.requestCount(.transactionInfo) == 0)  // not answered yet
            gate.open()
            let answered = try await held
            #expect(answered.status == 200)
            #expect(gate.heldCount == 0 && store.requestCount(.transactionInfo) == 1)
            // A gate nobody opens lets its request go on at its limit.
            let forgotten = SimulatedGate(limit: .milliseconds(100))
            store.inject(.hold(forgotten), for: .transactionInfo)
            #expect(try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)").status == 200)
            #expect(forgotten.arrivals == 1 && !forgotten.isOpen)
        }
    }

    /// The peer closed the connection: before the answer (AsyncHTTPClient's `remoteConnectionClosed`) or with a
    /// reset while the request was being sent.
    static func isClosedByPeer(_ error: any Error) -> Bool {
        (error as? HTTPClientError) == .remoteConnectionClosed || (error as? IOError)?.errnoCode == ECONNRESET
    }

    @Test func closedConnectionsAndADownServerFailTheRequest() async throws {
        try await Self.withSimulator { store, client in
            store.inject(.closeConnection, for: .transactionInfo)
            await #expect {
                _ = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            } throws: { Self.isClosedByPeer($0) }
            #expect(store.requests.last?.status == 0)
            store.isDown = true
            await #expect {
                _ = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            } throws: { Self.isClosedByPeer($0) }
            #expect(store.requestCount(.transactionInfo) == 1)
            store.isDown = false
            let answered = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            #expect(answered.status == 200)
        }
    }

    // MARK: Limits

    @Test func requestLogKeepsTheNewestWhileCountsKeepEverything() async throws {
        try await Self.withSimulator { store, client in
            #expect(store.requestLogLimit == 1_000)
            store.requestLogLimit = 2
            for _ in 0..<3 {
                _ = try await client.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            }
            #expect(store.requests.count == 2)
            #expect(store.requestCount(.transactionInfo) == 3)
            store.resetRequests()
            #expect(store.requestCount(.transactionInfo) == 0)
            #expect(store.requests.isEmpty)
        }
    }

    @Test func bodyOverSixtyFourKiBIsABadRequest() async throws {
        try await Self.withSimulator { store, client in
            var large: [String: JSONValue] = ["customerConsented": .bool(true)]
            large["padding"] = .string(String(repeating: "x", count: 64 * 1024))
            let refused = try await client.send(
                .PUT, "/inApps/v1/transactions/consumption/\(Self.original)", body: JSONValue.object(large).serialized)
            #expect(refused.status == 400)
            #expect(try refused.object()["errorCode"] == .number(JSONNumber(4_000_000)))
            #expect(store.consumptionInformation(transactionID: Self.original) == nil)
        }
    }

    @Test func sandboxHostServesSandboxTransactionsOnly() async throws {
        let store = try Self.store()
        try store.add(
            transaction: JWSSamplePayload.transaction(
                bundleIdentifier: Self.bundle, productID: Self.product, transactionID: "5000000000000001",
                environment: .sandbox, purchaseDate: Self.now, signedDate: Self.now))
        try await Self.withSimulator(store, environment: .sandbox) { _, api in
            let history = try await api.send(.GET, "/inApps/v2/history/5000000000000001").object()
            #expect(history["environment"] == .string("Sandbox"))
            #expect(history["signedTransactions"]?.arrayValue?.count == 1)
            let production = try await api.send(.GET, "/inApps/v1/transactions/\(Self.original)")
            #expect(production.status == 404)
        }
    }

    @Test func pageSizeDefaultsToApplesTwentyAndStaysPositive() throws {
        let store = SimulatedAppStore()
        #expect(store.pageSize == 20)
        store.pageSize = 0
        #expect(store.pageSize == 1)
    }

    @Test func transactionWithoutIdentifiersIsRefused() throws {
        #expect {
            try SimulatedAppStore().add(transaction: ["productId": .string("x")])
        } throws: { error in
            (error as? SimulatorError)?.code == .incompletePayload
        }
    }
}

extension JSONValue {
    /// The elements, when this is an array.
    fileprivate var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
