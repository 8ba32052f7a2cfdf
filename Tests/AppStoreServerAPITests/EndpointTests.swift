@testable import AppStoreServerAPI
import APITestSupport
import AppStoreJWS
import AppStorePKI
import Foundation
import Testing

/// Each endpoint on Apple's path and method, with its query and body, and the headers every request carries.
struct EndpointTests {
    func sent(
        _ call: (AppStoreServerAPIClient) async throws -> Void,
        answer: String = "{}",
        status: Int = 200
    )
        async throws -> HTTPTransportRequest
    {
        let transport = ScriptedTransport([ScriptedTransport.json(status, answer)])
        let client = try TestClients.client(transport)
        try await call(client)
        return try #require(transport.requests.first)
    }

    @Test func everyEndpointIsOnApplesPathAndMethod() async throws {
        let base = "http://127.0.0.1:8080"
        let window = NotificationHistoryRequest(
            startDate: Date(timeIntervalSince1970: 1_698_148_900),
            endDate: Date(timeIntervalSince1970: 1_698_148_950),
            notificationType: "SUBSCRIBED",
            transactionID: "9"
        )
        let cases: [(String, String, (AppStoreServerAPIClient) async throws -> Void)] = [
            (
                "GET", "/inApps/v2/history/1000",
                { _ = try await $0.transactionHistoryPageUnverified(transactionID: "1000") }
            ),
            (
                "GET", "/inApps/v1/transactions/1000",
                { _ = try await $0.transactionInfoUnverified(transactionID: "1000") }
            ),
            (
                "GET", "/inApps/v1/subscriptions/1000?status=1&status=4",
                {
                    _ = try await $0.allSubscriptionStatusesUnverified(
                        transactionID: "1000",
                        status: [.active, .billingGracePeriod]
                    )
                }
            ),
            ("GET", "/inApps/v1/lookup/W0021", { _ = try await $0.lookUpOrderIDUnverified("W0021") }),
            (
                "GET", "/inApps/v2/refund/lookup/1000?revision=r1",
                { _ = try await $0.refundHistoryPageUnverified(transactionID: "1000", revision: "r1") }
            ),
            (
                "POST", "/inApps/v1/notifications/history?paginationToken=p1",
                { _ = try await $0.notificationHistoryPageUnverified(window, paginationToken: "p1") }
            ),
            ("POST", "/inApps/v1/notifications/test", { _ = try await $0.requestTestNotification() }),
            (
                "GET", "/inApps/v1/notifications/test/tok",
                { _ = try await $0.testNotificationStatusUnverified(testNotificationToken: "tok") }
            ),
            (
                "PUT", "/inApps/v2/transactions/consumption/1000",
                {
                    try await $0.sendConsumptionInformation(
                        transactionID: "1000",
                        ConsumptionRequest(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false)
                    )
                }
            ),
            (
                "PUT", "/inApps/v1/transactions/consumption/1000",
                {
                    try await $0.sendConsumptionInformationV1(
                        transactionID: "1000",
                        ConsumptionRequestV1(customerConsented: true)
                    )
                }
            ),
            (
                "PUT", "/inApps/v1/subscriptions/extend/1000",
                {
                    _ = try await $0.extendSubscriptionRenewalDate(
                        originalTransactionID: "1000",
                        ExtendRenewalDateRequest(
                            extendByDays: 30,
                            extendReasonCode: .serviceIssueOrOutage,
                            requestIdentifier: "r"
                        )
                    )
                }
            ),
            (
                "PUT", "/inApps/v1/transactions/1000/appAccountToken",
                {
                    try await $0.setAppAccountToken(
                        originalTransactionID: "1000",
                        appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138"
                    )
                }
            ),
        ]
        for (method, target, call) in cases {
            let request = try await sent(call)
            #expect(request.method == method, "\(target)")
            #expect(request.url == base + target)
            let authorization = try #require(request.header("Authorization"))
            #expect(authorization.hasPrefix("Bearer ey"))
            #expect(request.header("Accept") == "application/json")
            #expect(request.header("Content-Type") == (request.body == nil ? nil : "application/json"))
        }
    }

    /// Issue 48: by default each request, and each attempt of a retried one, carries a token of its own; with
    /// `.reused()` they share one.
    @Test func everyRequestCarriesANewTokenUnlessReuseIsAsked() async throws {
        func tokens(_ policy: BearerTokenPolicy) async throws -> [String] {
            let transport = ScriptedTransport([
                ScriptedTransport.json(200, "{}"), ScriptedTransport.json(503, "{}"), ScriptedTransport.json(200, "{}"),
            ])
            let client = try TestClients.client(transport) { $0.tokenPolicy = policy }
            _ = try await client.transactionInfoUnverified(transactionID: "1")
            _ = try await client.transactionInfoUnverified(transactionID: "2")  // retried once after the 503
            return transport.requests.compactMap { $0.header("Authorization") }
        }
        let fresh = try await tokens(.perRequest)
        #expect(fresh.count == 3)
        #expect(Set(fresh).count == 3)
        let reused = try await tokens(.reused())
        #expect(reused.count == 3)
        #expect(Set(reused).count == 1)
    }

    @Test func historyFiltersAreSentOnEveryPageInApplesNames() async throws {
        let filter = TransactionHistoryFilter(
            startDate: Date(timeIntervalSince1970: 1_698_148_900),
            endDate: Date(timeIntervalSince1970: 1_698_148_950.5),
            productIDs: ["com.example.1", "com.example.2"],
            productTypes: [.autoRenewable, .consumable],
            sort: .descending,
            subscriptionGroupIdentifiers: ["sub_group_id"],
            inAppOwnershipType: .familyShared,
            revoked: false
        )
        let request = try await sent {
            _ = try await $0.transactionHistoryPageUnverified(transactionID: "1234", filter: filter, revision: "rev")
        }
        #expect(
            request.url == "http://127.0.0.1:8080/inApps/v2/history/1234?revision=rev&startDate=1698148900000"
                + "&endDate=1698148950500&productId=com.example.1&productId=com.example.2&productType=AUTO_RENEWABLE"
                + "&productType=CONSUMABLE&sort=DESCENDING&subscriptionGroupIdentifier=sub_group_id"
                + "&inAppOwnershipType=FAMILY_SHARED&revoked=false"
        )
    }

    @Test func requestBodiesAreApplesJSON() async throws {
        func body(_ request: HTTPTransportRequest) throws -> [String: Any] {
            let data = Data(try #require(request.body))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let history = try await sent {
            _ = try await $0.notificationHistoryPageUnverified(
                NotificationHistoryRequest(
                    startDate: Date(timeIntervalSince1970: 1_698_148_900),
                    endDate: Date(timeIntervalSince1970: 1_698_148_950),
                    notificationType: "SUBSCRIBED",
                    notificationSubtype: "INITIAL_BUY",
                    transactionID: "999",
                    onlyFailures: true
                )
            )
        }
        let json = try body(history)
        #expect(json["startDate"] as? Int == 1_698_148_900_000)
        #expect(json["endDate"] as? Int == 1_698_148_950_000)
        #expect(json["notificationType"] as? String == "SUBSCRIBED")
        #expect(json["notificationSubtype"] as? String == "INITIAL_BUY")
        #expect(json["transactionId"] as? String == "999")
        #expect(json["onlyFailures"] as? Bool == true)

        let extend = try body(
            try await sent {
                _ = try await $0.extendSubscriptionRenewalDate(
                    originalTransactionID: "1",
                    ExtendRenewalDateRequest(
                        extendByDays: 45,
                        extendReasonCode: .customerSatisfaction,
                        requestIdentifier: "fdf964a4"
                    )
                )
            }
        )
        #expect(extend["extendByDays"] as? Int == 45)
        #expect(extend["extendReasonCode"] as? Int == 1)
        #expect(extend["requestIdentifier"] as? String == "fdf964a4")

        let token = try body(
            try await sent {
                try await $0.setAppAccountToken(
                    originalTransactionID: "1",
                    appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138"
                )
            }
        )
        #expect(token as NSDictionary == ["appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138"] as NSDictionary)

        // Issue 48: V2, Apple's current body (strings, milliunits), and V1 under its own name with its integer codes.
        let consumption = try body(
            try await sent(
                {
                    try await $0.sendConsumptionInformation(
                        transactionID: "1",
                        ConsumptionRequest(
                            customerConsented: true, deliveryStatus: .undeliveredServerOutage,
                            sampleContentProvided: true, consumptionPercentage: 25_000, refundPreference: .grantProrated)
                    )
                },
                answer: "",
                status: 202
            )
        )
        #expect(consumption as NSDictionary == [
            "customerConsented": true, "deliveryStatus": "UNDELIVERED_SERVER_OUTAGE", "sampleContentProvided": true,
            "consumptionPercentage": 25_000, "refundPreference": "GRANT_PRORATED",
        ] as NSDictionary)
        let least = try body(try await sent({
            try await $0.sendConsumptionInformation(
                transactionID: "1", ConsumptionRequest(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false))
        }, answer: "", status: 202))
        #expect(least as NSDictionary == ["customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false] as NSDictionary)

        let v1 = try body(
            try await sent(
                {
                    try await $0.sendConsumptionInformationV1(
                        transactionID: "1",
                        ConsumptionRequestV1(
                            customerConsented: true, consumptionStatus: .notConsumed, platform: .nonApple,
                            deliveryStatus: .notDeliveredServerOutage, accountTenure: .over365Days, playTime: .oneToSixHours,
                            lifetimeDollarsRefunded: .zero, lifetimeDollarsPurchased: .atLeast2000, userStatus: .active,
                            refundPreference: .preferGrant)
                    )
                },
                answer: "",
                status: 202
            )
        )
        #expect(v1 as NSDictionary == [
            "customerConsented": true, "consumptionStatus": 1, "platform": 2, "sampleContentProvided": false,
            "deliveryStatus": 3, "appAccountToken": "", "accountTenure": 7, "playTime": 3, "lifetimeDollarsRefunded": 1,
            "lifetimeDollarsPurchased": 7, "userStatus": 1, "refundPreference": 1,
        ] as NSDictionary)
    }

    @Test(arguments: [-1, 100_001, Int32.max])
    func aConsumptionPercentageOutOfRangeIsRefusedBeforeSending(percentage: Int32) async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(202, "")])
        let client = try TestClients.client(transport)
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.sendConsumptionInformation(
                transactionID: "1",
                ConsumptionRequest(
                    customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
                    consumptionPercentage: percentage))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.reason == "consumptionPercentage must be 0 to 100000 (milliunits of a percent), not \(percentage)")
        #expect(transport.requests.isEmpty)
    }

    @Test func pathSegmentsAreEncodedSoAnIDCannotLeaveItsSegment() async throws {
        let request = try await sent {
            _ = try await $0.transactionInfoUnverified(transactionID: "../../v1/lookup/x?y=1#z")
        }
        #expect(request.url == "http://127.0.0.1:8080/inApps/v1/transactions/..%2F..%2Fv1%2Flookup%2Fx%3Fy%3D1%23z")
        let dots = try await sent { _ = try await $0.transactionInfoUnverified(transactionID: "..") }
        #expect(dots.url == "http://127.0.0.1:8080/inApps/v1/transactions/%2E%2E")
    }

    @Test(arguments: [
        "timeout", "maximumResponseSize", "maximumPages", "maximumConcurrentRequests", "retryPolicy.maximumAttempts",
        "retryPolicy.maximumTotalTime", "maximumPagedItems", "maximumPagingTime",
    ])
    func aBoundThatIsNotPositiveIsAnInvalidConfiguration(bound: String) throws {
        for value in [0, -1] {
            let transport = ScriptedTransport([])
            let error = #expect(throws: AppStoreServerAPIError.self) {
                try TestClients.client(transport) { configuration in
                    switch bound {
                    case "timeout": configuration.timeout = .seconds(value)
                    case "maximumResponseSize": configuration.maximumResponseSize = value
                    case "maximumPages": configuration.maximumPages = value
                    case "maximumConcurrentRequests": configuration.maximumConcurrentRequests = value
                    case "retryPolicy.maximumAttempts": configuration.retryPolicy.maximumAttempts = value
                    case "maximumPagedItems": configuration.maximumPagedItems = value
                    case "maximumPagingTime": configuration.maximumPagingTime = .seconds(value)
                    default: configuration.retryPolicy.maximumTotalTime = .seconds(value)
                    }
                }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.reason.contains(bound) == true)
        }
    }

    @Test func aNotificationHistoryDateOutOfRangeIsRefusedBeforeSending() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(200, "{}")])
        let client = try TestClients.client(transport)
        for (start, end) in [
            (Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: 0)),
            (Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1e300)),
        ] {
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client.notificationHistoryPageUnverified(
                    NotificationHistoryRequest(startDate: start, endDate: end)
                )
            }
            #expect(error?.code == .invalidConfiguration)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("a transaction history date out of range is refused before sending, not left out (which would widen the query)")
    func aHistoryDateOutOfRangeIsRefusedBeforeSending() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(200, "{}")])
        let client = try TestClients.client(transport)
        for filter in [
            TransactionHistoryFilter(startDate: Date(timeIntervalSince1970: 1e300)),
            TransactionHistoryFilter(startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: -1e13)),
            TransactionHistoryFilter(endDate: Date(timeIntervalSince1970: .infinity)),
        ] {
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client.transactionHistoryPageUnverified(transactionID: "1234", filter: filter)
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.reason.contains("Date is out of range") == true)
            let all = await #expect(throws: AppStoreServerAPIError.self) {
                try await client.transactionHistory(transactionID: "1234", filter: filter)
            }
            #expect(all?.code == .invalidConfiguration)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func anAppAppleIDThatIsNotPositiveIsRefused() throws {
        let key = try TestClients.key()
        let error = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "b", environment: .production, appAppleID: 0)
        }
        #expect(error?.reason == "the app Apple ID must be positive, not 0")
        let set = #expect(throws: AppStoreServerAPIError.self) {
            try TestClients.client(ScriptedTransport([])) { $0.appAppleID = -1 }
        }
        #expect(set?.reason == "appAppleID must be positive")
    }

    @Test func theHostsAreApplesForEachEnvironment() throws {
        let key = try TestClients.key()
        let production = try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "b", environment: .production)
        let sandbox = try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "b", environment: .sandbox)
        // Issue 48: Apple's current hosts (Apple's library 6.0.0); the previous ones stay accepted as base URLs.
        #expect(production.baseURL == "https://api.storekit.apple.com")
        #expect(sandbox.baseURL == "https://api.storekit-sandbox.apple.com")
        for previous in [AppStoreServerAPIConfiguration.previousProductionBaseURL, AppStoreServerAPIConfiguration.previousSandboxBaseURL] {
            let kept = try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "b", environment: .production, baseURL: previous)
            #expect(kept.baseURL == previous)
        }
        #expect(production.verificationPolicy.environment == .production)
        #expect(sandbox.verificationPolicy.environment == .sandbox)
        #expect(sandbox.verificationPolicy.bundleIdentifier == "b")
        #expect(production.maximumConcurrentRequests == 8)
        #expect(production.timeout == .seconds(30))
        #expect(production.maximumPages == 1000)
        #expect(production.maximumPagedItems == 20_000)
        #expect(production.maximumPagingTime == .seconds(120))
        for environment in [AppStoreEnvironment.xcode, .localTesting, AppStoreEnvironment(rawValue: "Other")] {
            let error = #expect(throws: AppStoreServerAPIError.self) {
                try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "b", environment: environment)
            }
            #expect(error?.code == .invalidConfiguration)
        }
    }

    @Test(arguments: [
        ("https://api.example.com", "https://api.example.com"),
        ("https://api.example.com:8443/prefix/", "https://api.example.com:8443/prefix"),
        ("http://127.0.0.1:9000", "http://127.0.0.1:9000"),
        ("http://127.0.0.1:9000/", "http://127.0.0.1:9000"),
        ("http://[::1]:9000", "http://[::1]:9000"),
        ("HTTP://[::1]", "HTTP://[::1]"),
    ])
    func baseURLsTheRulesAccept(url: String, expected: String) throws {
        let configuration = try AppStoreServerAPIConfiguration(
            key: try TestClients.key(),
            bundleIdentifier: "b",
            environment: .sandbox,
            baseURL: url
        )
        #expect(configuration.baseURL == expected)
    }

    @Test(arguments: [
        "http://api.example.com", "http://10.0.0.1:8080", "http://127.0.0.2", "http://localhost.example.com",
        "http://[::2]:80", "ftp://127.0.0.1", "127.0.0.1:8080", "https://", "https://host:0", "https://host:99999",
        "https://host:port", "http://user@127.0.0.1", "https://host/path?q=1", "https://host#f", "http://[::1",
        "https://ho st", "http://localhost:9000", "HTTP://LOCALHOST", "http://localhost.", "http://::1:9000",
    ])
    func baseURLsTheRulesRefuse(url: String) throws {
        let key = try TestClients.key()
        let error = #expect(throws: AppStoreServerAPIError.self) {
            try AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "b", environment: .sandbox, baseURL: url)
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
