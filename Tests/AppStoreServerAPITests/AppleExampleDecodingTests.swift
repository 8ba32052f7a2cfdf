@testable import AppStoreServerAPI
import APITestSupport
import AppStoreJWS
import AppStorePKI
import Foundation
import SharedFixtures
import Testing

/// Every documented response example Apple ships decodes through the client, with its real field values: each is
/// served by a scripted transport to the endpoint that answers it, so the client's own decoding path is the one
/// tested. Signed values in the examples are placeholders, so the `Unverified` calls read them.
@Suite(.enabled(if: AppStoreServerAPIExamples.available, Comment(rawValue: AppStoreServerAPIExamples.skipMessage)))
struct AppleExampleDecodingTests {
    func client(answering name: String, status: Int = 200) throws -> (AppStoreServerAPIClient, ScriptedTransport) {
        let body = try AppStoreServerAPIExamples.bytes(name)
        let transport = ScriptedTransport([.answer(HTTPTransportResponse(status: status, body: body))])
        let client = try TestClients.client(transport) { $0.retryPolicy = .never }
        return (client, transport)
    }

    @Test func transactionHistoryResponse() async throws {
        let (client, _) = try client(answering: "transactionHistoryResponse.json")
        let page = try await client.transactionHistoryPageUnverified(transactionID: "1234")
        #expect(page.revision == "revision_output")
        #expect(page.hasMore == true)
        #expect(page.bundleIdentifier == "com.example")
        #expect(page.appAppleID == 323_232)
        #expect(page.environment == .localTesting)
        #expect(page.transactions == ["signed_transaction_value", "signed_transaction_value2"])
    }

    @Test func anUnknownEnvironmentIsKeptAsSent() async throws {
        let (client, _) = try client(answering: "transactionHistoryResponseWithMalformedEnvironment.json")
        let page = try await client.transactionHistoryPageUnverified(transactionID: "1234")
        #expect(page.environment == AppStoreEnvironment(rawValue: "LocalTestingxxx"))
        #expect(page.appAppleID == 323_232)
    }

    @Test func anAppAppleIDThatIsNotANumberIsMalformed() async throws {
        let (client, _) = try client(answering: "transactionHistoryResponseWithMalformedAppAppleId.json")
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionHistoryPageUnverified(transactionID: "1234")
        }
        #expect(error?.code == .malformedResponse)
    }

    @Test func transactionInfoResponse() async throws {
        let (client, _) = try client(answering: "transactionInfoResponse.json")
        let info = try await client.transactionInfoUnverified(transactionID: "1234")
        #expect(info.signedTransactionInfo == "signed_transaction_info_value")
    }

    @Test func appTransactionInfoResponse() async throws {
        let (client, transport) = try client(answering: "appTransactionInfoResponse.json")
        let info = try await client.appTransactionInfoUnverified(transactionID: "1234")
        #expect(info.signedAppTransactionInfo == "signed_app_transaction_info_value")
        #expect(transport.requests.map(\.method) == ["GET"])
        #expect(transport.requests.first?.url.hasSuffix("/inApps/v1/transactions/appTransactions/1234") == true)
    }

    @Test func appTransactionDoesNotExistError() async throws {
        let (client, _) = try client(answering: "appTransactionDoesNotExistError.json", status: 404)
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.appTransactionInfo(transactionID: "1234")
        }
        #expect(error?.code == .apiError)
        #expect(error?.apiErrorCode == .appTransactionDoesNotExist)
        #expect(error?.errorMessage == "No AppTransaction exists for the customer.")
    }

    @Test func getAllSubscriptionStatusesResponse() async throws {
        let (client, _) = try client(answering: "getAllSubscriptionStatusesResponse.json")
        let statuses = try await client.allSubscriptionStatusesUnverified(transactionID: "4321")
        #expect(statuses.environment == .localTesting)
        #expect(statuses.bundleIdentifier == "com.example")
        #expect(statuses.appAppleID == 5_454_545)
        #expect(statuses.data.map(\.subscriptionGroupIdentifier) == ["sub_group_one", "sub_group_two"])
        let first = statuses.data[0].lastTransactions
        #expect(first.map(\.status) == [.active, .revoked])
        #expect(first.map(\.originalTransactionID) == ["3749183", "5314314134"])
        #expect(first.map(\.transaction) == ["signed_transaction_one", "signed_transaction_two"])
        #expect(first.map(\.renewalInfo) == ["signed_renewal_one", "signed_renewal_two"])
        let second = statuses.data[1].lastTransactions
        #expect(second.map(\.status) == [.expired])
        #expect(second.first?.originalTransactionID == "3413453")
        #expect(second.first?.transaction == "signed_transaction_three")
        #expect(second.first?.renewalInfo == "signed_renewal_three")
    }

    @Test func lookupOrderIDResponse() async throws {
        let (client, _) = try client(answering: "lookupOrderIdResponse.json")
        let lookup = try await client.lookUpOrderIDUnverified("W002182")
        #expect(lookup.status == .invalid)
        #expect(lookup.transactions == ["signed_transaction_one", "signed_transaction_two"])
    }

    @Test func getRefundHistoryResponse() async throws {
        let (client, _) = try client(answering: "getRefundHistoryResponse.json")
        let page = try await client.refundHistoryPageUnverified(transactionID: "555555")
        #expect(page.transactions == ["signed_transaction_one", "signed_transaction_two"])
        #expect(page.revision == "revision_output")
        #expect(page.hasMore == true)
    }

    @Test func getNotificationHistoryResponse() async throws {
        let (client, _) = try client(answering: "getNotificationHistoryResponse.json")
        let request = NotificationHistoryRequest(
            startDate: Date(timeIntervalSince1970: 1_698_148_900),
            endDate: Date(timeIntervalSince1970: 1_698_148_950)
        )
        let page = try await client.notificationHistoryPageUnverified(request)
        #expect(page.paginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
        #expect(page.hasMore == true)
        #expect(page.notificationHistory.map(\.notification) == ["signed_payload_one", "signed_payload_two"])
        let attempts = page.notificationHistory[0].sendAttempts
        #expect(
            attempts.map(\.attemptDate) == [
                AppStoreTimestamp(millisecondsSince1970: 1_698_148_900_000),
                AppStoreTimestamp(millisecondsSince1970: 1_698_148_950_000),
            ]
        )
        #expect(attempts.map(\.sendAttemptResult) == [.noResponse, .success])
        #expect(page.notificationHistory[1].sendAttempts.map(\.sendAttemptResult) == [.circularRedirect])
    }

    @Test func requestTestNotificationResponse() async throws {
        let (client, _) = try client(answering: "requestTestNotificationResponse.json")
        let response = try await client.requestTestNotification()
        #expect(response.testNotificationToken == "ce3af791-365e-4c60-841b-1674b43c1609")
    }

    @Test func getTestNotificationStatusResponse() async throws {
        let (client, _) = try client(answering: "getTestNotificationStatusResponse.json")
        let status = try await client.testNotificationStatusUnverified(testNotificationToken: "ce3af791")
        #expect(status.notification == "signed_payload")
        #expect(status.sendAttempts.map(\.sendAttemptResult) == [.noResponse, .success])
        #expect(status.sendAttempts.last?.attemptDate == AppStoreTimestamp(millisecondsSince1970: 1_698_148_950_000))
    }

    @Test func extendSubscriptionRenewalDateResponse() async throws {
        let (client, _) = try client(answering: "extendSubscriptionRenewalDateResponse.json")
        let response = try await client.extendSubscriptionRenewalDate(
            originalTransactionID: "2312412",
            ExtendRenewalDateRequest(
                extendByDays: 45,
                extendReasonCode: .customerSatisfaction,
                requestIdentifier: "fdf9"
            )
        )
        #expect(response.originalTransactionID == "2312412")
        #expect(response.webOrderLineItemID == "9993")
        #expect(response.success == true)
        #expect(response.effectiveDate == AppStoreTimestamp(millisecondsSince1970: 1_698_148_900_000))
    }

    /// Apple's error examples, each with the status Apple answers it with: the exact `errorCode`, message and code.
    @Test(arguments: [
        (
            "apiException.json", 500, Int64(5_000_000), "An unknown error occurred.",
            AppStoreServerAPIError.Code.serverError
        ),
        ("apiTooManyRequestsException.json", 429, 4_290_000, "Rate limit exceeded.", .rateLimited),
        ("apiUnknownError.json", 400, 9_990_000, "Testing error.", .apiError),
        (
            "appTransactionDoesNotExistError.json", 404, 4_040_019, "No AppTransaction exists for the customer.",
            .apiError
        ),
        (
            "familyTransactionNotSupportedError.json", 400, 4_000_185,
            "Invalid request. Family Sharing transactions aren't supported by this endpoint.", .apiError
        ),
        (
            "invalidAppAccountTokenUUIDError.json", 400, 4_000_183,
            "Invalid request. The app account token field must be a valid UUID.", .apiError
        ),
        ("invalidTransactionIdError.json", 400, 4_000_006, "Invalid transaction id.", .apiError),
        ("transactionIdNotFoundError.json", 404, 4_040_010, "Transaction id not found.", .apiError),
        (
            "transactionIdNotOriginalTransactionId.json", 400, 4_000_187,
            "Invalid request. The transaction ID provided is not an original transaction ID.", .apiError
        ),
    ])
    func appleErrorExamples(
        name: String,
        status: Int,
        errorCode: Int64,
        message: String,
        code: AppStoreServerAPIError.Code
    )
        async throws
    {
        let (client, _) = try client(answering: name, status: status)
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfoUnverified(transactionID: "1234")
        }
        #expect(error?.code == code)
        #expect(error?.httpStatus == status)
        #expect(error?.apiErrorCode == APIErrorCode(rawValue: errorCode))
        #expect(error?.errorMessage == message)
    }

    @Test func knownErrorCodesHaveTheirNames() throws {
        #expect(APIErrorCode.transactionIDNotFound.rawValue == 4_040_010)
        #expect(APIErrorCode.invalidTransactionID.rawValue == 4_000_006)
        #expect(APIErrorCode.familyTransactionNotSupported.rawValue == 4_000_185)
        #expect(APIErrorCode.generalInternalRetryable.isRetryable)
        #expect(!APIErrorCode.transactionIDNotFound.isRetryable)
    }

    /// The examples that are not answers of an endpoint this client calls (signed payload bodies, mass extension) are
    /// listed here, so a new example file fails this test until it is decoded above or named here.
    @Test func everyExampleIsAccountedFor() {
        let decodedAbove: Set<String> = [
            "transactionHistoryResponse.json", "transactionHistoryResponseWithMalformedEnvironment.json",
            "transactionHistoryResponseWithMalformedAppAppleId.json", "transactionInfoResponse.json",
            "getAllSubscriptionStatusesResponse.json", "lookupOrderIdResponse.json", "getRefundHistoryResponse.json",
            "getNotificationHistoryResponse.json", "requestTestNotificationResponse.json",
            "getTestNotificationStatusResponse.json", "extendSubscriptionRenewalDateResponse.json", "apiException.json",
            "apiTooManyRequestsException.json", "apiUnknownError.json", "appTransactionDoesNotExistError.json",
            "familyTransactionNotSupportedError.json", "invalidAppAccountTokenUUIDError.json",
            "invalidTransactionIdError.json", "transactionIdNotFoundError.json",
            "transactionIdNotOriginalTransactionId.json", "appTransactionInfoResponse.json",
        ]
        let notAnEndpointOfThisClient: Set<String> = [
            // Payloads inside JWS (AppStoreJWS decodes those), and endpoints outside issue 34's list.
            "appData.json", "appTransaction.json",
            "extendRenewalDateForAllActiveSubscribersResponse.json",
            "getStatusOfSubscriptionRenewalDateExtensionsResponse.json", "signedConsumptionRequestNotification.json",
            "signedExternalPurchaseTokenNotification.json", "signedExternalPurchaseTokenSandboxNotification.json",
            "signedNotification.json", "signedRenewalInfo.json", "signedRescindConsentNotification.json",
            "signedSummaryNotification.json", "signedTransaction.json", "signedTransactionWithRevocation.json",
        ]
        let unaccounted = Set(AppStoreServerAPIExamples.names).subtracting(decodedAbove).subtracting(
            notAnEndpointOfThisClient
        )
        #expect(unaccounted == [])
    }
}
