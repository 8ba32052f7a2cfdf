@testable import AppStoreServerAPI
import APITestSupport
import AppStoreJWS
import AppStorePKI
import Foundation
import NIOConcurrencyHelpers
import ReceiptKitTesting
import Testing
import X509

/// Signed values in answers, minted by the test authority: good ones come back as verified payloads; a wrong bundle
/// id, a wrong environment or another authority's chain is `untrusted_signed_data` with the exact JWS failure code.
/// Paging through `revision` / `hasMore` and `paginationToken` is checked on the same minted data.
struct VerificationTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    let authority: JWSTestAuthority

    init() throws {
        self.authority = try JWSTestAuthority()
    }

    func transaction(
        _ id: String,
        bundleIdentifier: String = TestClients.bundleIdentifier,
        environment: AppStoreEnvironment = .production,
        by authority: JWSTestAuthority? = nil
    ) throws -> String {
        let signer = authority ?? self.authority
        let payload = JWSSamplePayload.transaction(
            bundleIdentifier: bundleIdentifier,
            productID: "com.example.app.pro",
            transactionID: id,
            originalTransactionID: "1000",
            environment: environment,
            purchaseDate: Self.now.addingTimeInterval(-86_400),
            signedDate: Self.now
        )
        return try JWSMinter.sign(payload, signer: signer.leaf, chain: signer.chain)
    }

    func renewalInfo() throws -> String {
        let payload = JWSSamplePayload.renewalInfo(
            productID: "com.example.app.pro",
            originalTransactionID: "1000",
            signedDate: Self.now
        )
        return try JWSMinter.sign(payload, signer: self.authority.leaf, chain: self.authority.chain)
    }

    func client(_ steps: [ScriptedTransport.Step]) throws -> (AppStoreServerAPIClient, ScriptedTransport) {
        let transport = ScriptedTransport(steps)
        let client = try TestClients.client(
            transport,
            runtime: PinnedRuntime(now: Self.now),
            anchors: [self.authority.root.certificate]
        )
        return (client, transport)
    }

    static func page(_ signed: [String], revision: String, hasMore: Bool) -> ScriptedTransport.Step {
        let list = signed.map { "\"\($0)\"" }.joined(separator: ",")
        return ScriptedTransport.json(
            200,
            #"{"revision":"\#(revision)","hasMore":\#(hasMore),"bundleId":"com.example.app","appAppleId":1234,"environment":"Production","signedTransactions":[\#(list)]}"#
        )
    }

    @Test func historyFollowsEveryPageAndVerifiesEachTransaction() async throws {
        let (client, transport) = try client([
            Self.page([try transaction("1"), try transaction("2")], revision: "r1", hasMore: true),
            Self.page([try transaction("3")], revision: "r2", hasMore: true),
            Self.page([], revision: "r3", hasMore: false),
        ])
        let seen = NIOLockedValueBox<[[Int]]>([])
        let history = try await client.transactionHistory(
            transactionID: "1000",
            filter: TransactionHistoryFilter(productTypes: [.autoRenewable])
        ) { pages, transactions in seen.withLockedValue { $0.append([pages, transactions]) } }
        #expect(history.transactions.map(\.transactionID) == ["1", "2", "3"])
        #expect(history.transactions.allSatisfy { $0.bundleIdentifier == "com.example.app" })
        #expect(history.revision == "r3")
        #expect(history.hasMore == false)
        #expect(history.appAppleID == 1234)
        #expect(seen.withLockedValue { $0 } == [[1, 2], [2, 3], [3, 3]])
        #expect(
            transport.requests.map(\.url) == [
                "http://127.0.0.1:8080/inApps/v2/history/1000?productType=AUTO_RENEWABLE",
                "http://127.0.0.1:8080/inApps/v2/history/1000?revision=r1&productType=AUTO_RENEWABLE",
                "http://127.0.0.1:8080/inApps/v2/history/1000?revision=r2&productType=AUTO_RENEWABLE",
            ]
        )
    }

    @Test func pagingStopsAtMaximumPages() async throws {
        let transport = ScriptedTransport((0..<5).map { Self.page([], revision: "r\($0)", hasMore: true) })
        let client = try TestClients.client(transport, anchors: [self.authority.root.certificate]) {
            $0.maximumPages = 3
        }
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
        #expect(transport.requests.count == 3)
    }

    @Test func pagingStopsAtARevisionGivenBefore() async throws {
        let transport = ScriptedTransport(
            [Self.page([], revision: "r1", hasMore: true), Self.page([], revision: "r2", hasMore: true)]
                + (0..<5).map { _ in Self.page([], revision: "r1", hasMore: true) })
        let client = try TestClients.client(transport, anchors: [self.authority.root.certificate])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.reason == "the answer gives a revision it gave before (page 3): paging would never end")
        #expect(transport.requests.count == 3)
    }

    @Test func pagingStopsAtMaximumPagedItems() async throws {
        let signed = try (0..<4).map { try self.transaction("\(2000 + $0)") }
        let transport = ScriptedTransport((0..<5).map { Self.page(signed, revision: "r\($0)", hasMore: true) })
        let client = try TestClients.client(transport, anchors: [self.authority.root.certificate]) {
            $0.maximumPagedItems = 10
        }
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.reason == "the answer still has more after 12 items (maximumPagedItems 10)")
        #expect(transport.requests.count == 3)
    }

    @Test func pagingStopsAtMaximumPagingTime() async throws {
        // Each reading of the client's clock is 3 s later than the one before (tokens and retries read it too):
        // the paging passes 20 s after a few pages, long before the script runs out.
        let clock = NIOLockedValueBox(Self.now)
        let runtime = APIClientRuntime(
            now: { clock.withLockedValue { now in defer { now += 3 }; return now } },
            sleep: { _ in }, random: { 0 })
        let transport = ScriptedTransport((0..<50).map { Self.page([], revision: "r\($0)", hasMore: true) })
        let client = try TestClients.client(transport, clock: runtime, anchors: [self.authority.root.certificate]) {
            $0.maximumPagingTime = .seconds(20)
        }
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.reason.hasSuffix("(maximumPagingTime)") == true, "\(error?.reason ?? "")")
        #expect(transport.requests.count < 10)
    }

    @Test func anAnswerNamingAMemberTwiceIsMalformedWhicheverWouldWin() async throws {
        let (client, transport) = try client([
            ScriptedTransport.json(200, #"{"signedTransactions":[],"hasMore":true,"hasMore":false,"revision":"a"}"#),
            ScriptedTransport.json(404, #"{"errorCode":4040010,"errorCode":4000006,"errorMessage":"x"}"#),
        ])
        let duplicate = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(duplicate?.code == .malformedResponse)
        #expect(duplicate?.reason.contains("is not strict JSON") == true)
        // An error body naming a member twice gives no Apple error code: neither of its two is believed.
        let refused = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(refused?.code == .apiError)
        #expect(refused?.apiErrorCode == nil)
        #expect(refused?.httpStatus == 404)
        #expect(transport.requests.count == 2)
    }

    @Test func hasMoreWithoutATokenIsMalformed() async throws {
        let (client, transport) = try client([
            ScriptedTransport.json(200, #"{"signedTransactions":[],"hasMore":true}"#),
            ScriptedTransport.json(200, #"{"hasMore":true,"notificationHistory":[]}"#),
        ])
        let refunds = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.refundHistory(transactionID: "1000")
        }
        #expect(refunds?.code == .malformedResponse)
        let request = NotificationHistoryRequest(startDate: Self.now.addingTimeInterval(-3600), endDate: Self.now)
        let notifications = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.notificationHistory(request)
        }
        #expect(notifications?.code == .malformedResponse)
        #expect(transport.requests.count == 2)
    }

    @Test func refundHistoryFollowsRevision() async throws {
        let (client, transport) = try client([
            ScriptedTransport.json(
                200,
                #"{"signedTransactions":["\#(try transaction("7"))"],"revision":"a","hasMore":true}"#
            ),
            ScriptedTransport.json(
                200,
                #"{"signedTransactions":["\#(try transaction("8"))"],"revision":"b","hasMore":false}"#
            ),
        ])
        let refunds = try await client.refundHistory(transactionID: "1000")
        #expect(refunds.transactions.map(\.transactionID) == ["7", "8"])
        #expect(transport.requests.map(\.url).last == "http://127.0.0.1:8080/inApps/v2/refund/lookup/1000?revision=a")
    }

    @Test func notificationHistoryFollowsThePaginationTokenAndVerifiesNestedData() async throws {
        let notification = JWSSamplePayload.notification(
            type: .didRenew,
            notificationUUID: "0f7d5e3c-1",
            bundleIdentifier: TestClients.bundleIdentifier,
            appAppleID: 1234,
            signedDate: Self.now,
            signedTransactionInfo: try transaction("2"),
            signedRenewalInfo: try renewalInfo()
        )
        let signed = try JWSMinter.sign(notification, signer: self.authority.leaf, chain: self.authority.chain)
        let item =
            #"{"signedPayload":"\#(signed)","sendAttempts":[{"attemptDate":1749999999000,"sendAttemptResult":"SUCCESS"}]}"#
        let (client, transport) = try client([
            ScriptedTransport.json(200, #"{"paginationToken":"p1","hasMore":true,"notificationHistory":[\#(item)]}"#),
            ScriptedTransport.json(200, #"{"hasMore":false,"notificationHistory":[\#(item)]}"#),
        ])
        let request = NotificationHistoryRequest(startDate: Self.now.addingTimeInterval(-3600), endDate: Self.now)
        let history = try await client.notificationHistory(request)
        #expect(history.notificationHistory.count == 2)
        let first = try #require(history.notificationHistory.first?.notification)
        #expect(first.payload.fields["notificationType"] == .string("DID_RENEW"))
        #expect(first.transaction?.transactionID == "2")
        #expect(first.renewalInfo?.autoRenewStatus == .on)
        #expect(history.notificationHistory.first?.sendAttempts.first?.sendAttemptResult == .success)
        #expect(
            transport.requests.map(\.url) == [
                "http://127.0.0.1:8080/inApps/v1/notifications/history",
                "http://127.0.0.1:8080/inApps/v1/notifications/history?paginationToken=p1",
            ]
        )
        #expect(transport.requests.allSatisfy { $0.body == transport.requests.first?.body })
    }

    /// Issue 48: with the app's Apple ID configured (Apple's `SignedDataVerifier` requires it in Production), a
    /// Production notification naming another app Apple ID, or none, is `app_apple_id_mismatch`, and an answer's
    /// unsigned `appAppleId` must be it; the matching ones pass, and without the setting nothing is checked.
    @Test func theConfiguredAppAppleIDIsHeldAgainstProductionData() async throws {
        func history(_ appAppleID: Int64?) throws -> ScriptedTransport.Step {
            let notification = JWSSamplePayload.notification(
                type: .didRenew, notificationUUID: "0f7d5e3c-\(appAppleID ?? 0)",
                bundleIdentifier: TestClients.bundleIdentifier, appAppleID: appAppleID, signedDate: Self.now,
                signedTransactionInfo: try transaction("2"), signedRenewalInfo: try renewalInfo())
            let signed = try JWSMinter.sign(notification, signer: self.authority.leaf, chain: self.authority.chain)
            return ScriptedTransport.json(200, #"{"hasMore":false,"notificationHistory":[{"signedPayload":"\#(signed)"}]}"#)
        }
        let request = NotificationHistoryRequest(startDate: Self.now.addingTimeInterval(-3600), endDate: Self.now)
        let checked = try TestClients.client(
            ScriptedTransport([try history(1234), try history(5678), try history(nil),
                               Self.page([], revision: "r", hasMore: false),
                               ScriptedTransport.json(200, try statuses("1000").replacingOccurrences(
                                   of: #""appAppleId":1234"#, with: #""appAppleId":5678"#))]),
            runtime: PinnedRuntime(now: Self.now), anchors: [self.authority.root.certificate]
        ) { $0.appAppleID = 1234 }
        #expect(checked.configuration.verificationPolicy.appAppleID == 1234)
        #expect(try await checked.notificationHistory(request).notificationHistory.count == 1)
        for _ in 0..<2 {
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await checked.notificationHistory(request) }
            #expect(error?.code == .untrustedSignedData)
            #expect(error?.verificationFailures == [.appAppleIDMismatch])
        }
        #expect(try await checked.transactionHistory(transactionID: "1000").appAppleID == 1234)
        let unsigned = await #expect(throws: AppStoreServerAPIError.self) {
            try await checked.allSubscriptionStatuses(transactionID: "1000")
        }
        #expect(unsigned?.code == .malformedResponse)
        #expect(unsigned?.reason == "the status answer names appAppleId 5678, not 1234")

        let unchecked = try TestClients.client(
            ScriptedTransport([try history(5678)]), runtime: PinnedRuntime(now: Self.now),
            anchors: [self.authority.root.certificate])
        #expect(try await unchecked.notificationHistory(request).notificationHistory.count == 1)
    }

    @Test func statusesVerifyTransactionsAndRenewalInfo() async throws {
        let body = #"""
            {"environment":"Production","bundleId":"com.example.app","appAppleId":1234,"data":[{"subscriptionGroupIdentifier":"21000001","lastTransactions":[{"status":1,"originalTransactionId":"1000","signedTransactionInfo":"\#(try transaction("2"))","signedRenewalInfo":"\#(try renewalInfo())"}]}]}
            """#
        let (client, _) = try client([ScriptedTransport.json(200, body)])
        let statuses = try await client.allSubscriptionStatuses(transactionID: "1000")
        let last = try #require(statuses.data.first?.lastTransactions.first)
        #expect(last.status == .active)
        #expect(last.transaction?.transactionID == "2")
        #expect(last.renewalInfo?.autoRenewProductID == "com.example.app.pro")
    }

    @Test func transactionInfoAndOrderLookupReturnVerifiedPayloads() async throws {
        let (client, _) = try client([
            ScriptedTransport.json(200, #"{"signedTransactionInfo":"\#(try transaction("5"))"}"#),
            ScriptedTransport.json(200, #"{"status":0,"signedTransactions":["\#(try transaction("6"))"]}"#),
        ])
        #expect(try await client.transactionInfo(transactionID: "5").transactionID == "5")
        let lookup = try await client.lookUpOrderID("W1")
        #expect(lookup.status == .valid)
        #expect(lookup.transactions.map(\.transactionID) == ["6"])
    }

    func failure(_ signed: String) async throws -> AppStoreServerAPIError? {
        let (client, _) = try client([ScriptedTransport.json(200, #"{"signedTransactionInfo":"\#(signed)"}"#)])
        return await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfo(transactionID: "1")
        }
    }

    @Test func anotherAppsTransactionIsUntrusted() async throws {
        let error = try await failure(try transaction("1", bundleIdentifier: "com.other.app"))
        #expect(error?.code == .untrustedSignedData)
        #expect(error?.verificationFailures == [.bundleIDMismatch])
    }

    @Test func aTransactionFromAnotherEnvironmentIsUntrusted() async throws {
        let error = try await failure(try transaction("1", environment: .sandbox))
        #expect(error?.code == .untrustedSignedData)
        #expect(error?.verificationFailures == [.environmentMismatch])
    }

    @Test func aForeignChainIsUntrusted() async throws {
        let error = try await failure(try transaction("1", by: try JWSTestAuthority()))
        #expect(error?.code == .untrustedSignedData)
        #expect(error?.verificationFailures == [.certificateUntrusted])
    }

    @Test func aPlaceholderIsMalformedSignedData() async throws {
        let error = try await failure("signed_transaction_info_value")
        #expect(error?.code == .malformedSignedData)
    }

    @Test func oneUntrustedTransactionFailsTheWholePage() async throws {
        let (client, _) = try client([
            Self.page(
                [try transaction("1"), try transaction("2", bundleIdentifier: "com.other.app")],
                revision: "r",
                hasMore: false
            )
        ])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(error?.verificationFailures == [.bundleIDMismatch])
        let unverified = try await self.client([
            Self.page(
                [try transaction("1"), try transaction("2", bundleIdentifier: "com.other.app")],
                revision: "r",
                hasMore: false
            )
        ]).0.transactionHistoryPageUnverified(transactionID: "1000")
        #expect(unverified.transactions.count == 2)
    }

    @Test func aFreshPolicyStillHoldsTheClientsBundleAndEnvironment() async throws {
        let otherApp = try transaction("1", bundleIdentifier: "com.other.app")
        let otherEnvironment = try transaction("2", environment: .sandbox)
        let transport = ScriptedTransport([
            ScriptedTransport.json(200, #"{"signedTransactionInfo":"\#(otherApp)"}"#),
            ScriptedTransport.json(200, #"{"signedTransactionInfo":"\#(otherEnvironment)"}"#),
        ])
        let client = try TestClients.client(transport, runtime: PinnedRuntime(now: Self.now)) {
            // A policy built from scratch: no bundle id, no environment, local environments allowed.
            $0.verificationPolicy = JWSVerificationPolicy(
                anchors: AppStoreTrustAnchors([self.authority.root.certificate]),
                allowsLocalEnvironments: true
            )
        }
        #expect(client.configuration.verificationPolicy.bundleIdentifier == TestClients.bundleIdentifier)
        #expect(client.configuration.verificationPolicy.environment == .production)
        #expect(client.configuration.verificationPolicy.allowsLocalEnvironments == false)
        let wrongApp = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfo(transactionID: "1")
        }
        #expect(wrongApp?.code == .untrustedSignedData)
        #expect(wrongApp?.verificationFailures == [.bundleIDMismatch])
        let wrongEnvironment = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfo(transactionID: "2")
        }
        #expect(wrongEnvironment?.code == .untrustedSignedData)
        #expect(wrongEnvironment?.verificationFailures == [.environmentMismatch])
    }

    func statuses(
        _ originalTransactionID: String,
        bundleIdentifier: String = "com.example.app",
        environment: String = "Production"
    ) throws -> String {
        #"""
        {"environment":"\#(environment)","bundleId":"\#(bundleIdentifier)","appAppleId":1234,"data":[{"subscriptionGroupIdentifier":"21000001","lastTransactions":[{"status":1,"originalTransactionId":"\#(originalTransactionID)","signedTransactionInfo":"\#(try transaction("2"))","signedRenewalInfo":"\#(try renewalInfo())"}]}]}
        """#
    }

    @Test func anUnsignedOriginalTransactionIDMustMatchTheSignedOnes() async throws {
        let (client, _) = try client([ScriptedTransport.json(200, try statuses("9999"))])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.allSubscriptionStatuses(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
    }

    @Test(arguments: [("com.other.app", "Production"), ("com.example.app", "Sandbox")])
    func anotherAppOrEnvironmentAtTheTopOfAStatusAnswerIsMalformed(bundleIdentifier: String, environment: String) async throws {
        let (client, _) = try client([
            ScriptedTransport.json(200, try statuses("1000", bundleIdentifier: bundleIdentifier, environment: environment))
        ])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.allSubscriptionStatuses(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
    }

    @Test(arguments: [
        #""bundleId":"com.other.app","environment":"Production""#,
        #""bundleId":"com.example.app","environment":"Sandbox""#,
    ])
    func anotherAppOrEnvironmentAtTheTopOfAHistoryPageIsMalformed(fields: String) async throws {
        let signed = try transaction("1")
        let (client, _) = try client([
            ScriptedTransport.json(200, #"{"hasMore":false,\#(fields),"signedTransactions":["\#(signed)"]}"#)
        ])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistory(transactionID: "1000")
        }
        #expect(error?.code == .malformedResponse)
    }

    @Test func anAbsentTopLevelAppAndAMatchingItemPass() async throws {
        let (client, _) = try client([
            ScriptedTransport.json(200, #"{"hasMore":false,"signedTransactions":["\#(try transaction("1"))"]}"#),
            ScriptedTransport.json(
                200,
                #"{"data":[{"lastTransactions":[{"status":2,"signedTransactionInfo":"\#(try transaction("2"))"}]}]}"#
            ),
        ])
        #expect(try await client.transactionHistory(transactionID: "1000").transactions.count == 1)
        let statuses = try await client.allSubscriptionStatuses(transactionID: "1000")
        // The item named no originalTransactionId: the verified transaction's is returned.
        #expect(statuses.data.first?.lastTransactions.first?.originalTransactionID == "1000")
    }

    /// Apple's documented example (`lookupOrderIdResponse.json`) answers `status: 1` with transactions: accepted,
    /// the transactions verified (another app's still refuses the answer).
    @Test func anOrderCalledInvalidWithTransactionsIsAnsweredVerified() async throws {
        let (client, _) = try client([
            ScriptedTransport.json(200, #"{"status":1,"signedTransactions":["\#(try transaction("6"))"]}"#),
            ScriptedTransport.json(
                200, #"{"status":1,"signedTransactions":["\#(try transaction("6", bundleIdentifier: "com.other.app"))"]}"#),
        ])
        let lookup = try await client.lookUpOrderID("W1")
        #expect(lookup.status == .invalid)
        #expect(lookup.transactions.map(\.transactionID) == ["6"])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.lookUpOrderID("W1")
        }
        #expect(error?.code == .untrustedSignedData)
        #expect(error?.verificationFailures == [.bundleIDMismatch])
    }

    /// What `receiptkit api … --json` prints: the answer with each signed value replaced by its verified payload.
    @Test func aVerifiedAnswerEncodesWithPayloadsInPlaceOfSignedValues() async throws {
        let (client, _) = try client([Self.page([try transaction("1")], revision: "r", hasMore: false)])
        let history = try await client.transactionHistory(transactionID: "1000")
        let data = try JSONEncoder().encode(history)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let transactions = try #require(json["signedTransactions"] as? [[String: Any]])
        #expect(transactions.first?["transactionId"] as? String == "1")
        #expect(transactions.first?["bundleId"] as? String == "com.example.app")
        #expect(json["revision"] as? String == "r")
        #expect(json["environment"] as? String == "Production")
        #expect(json["appAppleId"] as? Int == 1234)
    }
}
