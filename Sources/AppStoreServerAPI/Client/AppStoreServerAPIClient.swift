public import AppStoreJWS
import _ReceiptKitShared

/// A client for Apple's App Store Server API: each endpoint a method, on Apple's paths, authenticated with an ES256
/// bearer token, a new one for each request by default (``BearerTokenPolicy``).
///
/// ```swift
/// let key = try AppStoreServerAPIKey(issuerID: issuerID, keyID: keyID, pemRepresentation: p8)
/// let client = try AppStoreServerAPIClient(
///     configuration: AppStoreServerAPIConfiguration(key: key, bundleIdentifier: "com.example.app", environment: .production))
/// let history = try await client.transactionHistory(transactionID: "2000000123456789")
/// for transaction in history.transactions { print(transaction.productID ?? "?") }
/// ```
///
/// Every signed value in an answer is verified with AppStoreJWS (``AppStoreServerAPIConfiguration/verificationPolicy``)
/// before it is returned; only the calls whose name ends in `Unverified` hand back signed values as sent. 429 and 5xx
/// answers and failed connections are retried as ``AppStoreServerAPIConfiguration/retryPolicy`` says; any other
/// answer that is not a success is an ``AppStoreServerAPIError`` at once.
public struct AppStoreServerAPIClient: Sendable {
    /// The configuration.
    public let configuration: AppStoreServerAPIConfiguration
    let transport: any HTTPTransport
    let runtime: APIClientRuntime
    let tokens: BearerTokenProvider
    let limiter: AsyncSemaphore
    let verifier: JWSVerifier

    /// A client.
    ///
    /// The client holds signed data to its own app whatever the configuration's policy says: it verifies with
    /// ``AppStoreServerAPIConfiguration/verificationPolicy`` with `bundleIdentifier` set to
    /// ``AppStoreServerAPIConfiguration/bundleIdentifier``, `environment` to ``AppStoreServerAPIConfiguration/environment``
    /// and `allowsLocalEnvironments` off (its anchors, revocation check and the rest are kept), and
    /// ``configuration`` shows that policy.
    /// - Parameters:
    ///   - configuration: The key, the app, the environment and the limits.
    ///   - transport: How requests travel; AsyncHTTPClient by default.
    ///   - runtime: The clock, the sleep and the jitter; the system's by default.
    /// - Throws: ``AppStoreServerAPIError`` with ``AppStoreServerAPIError/Code/invalidConfiguration`` when the token
    ///   policy's lifetime is out of range, or when the timeout, the response size bound, the page bound, the concurrency
    ///   bound, the retry policy's attempts or its total time is not positive.
    public init(
        configuration: AppStoreServerAPIConfiguration,
        transport: any HTTPTransport = AsyncHTTPTransport(),
        runtime: APIClientRuntime = .live
    ) throws(AppStoreServerAPIError) {
        try Self.validate(configuration)
        var configuration = configuration
        configuration.verificationPolicy.bundleIdentifier = configuration.bundleIdentifier
        configuration.verificationPolicy.appAppleID = configuration.appAppleID
        configuration.verificationPolicy.environment = configuration.environment
        configuration.verificationPolicy.allowsLocalEnvironments = false
        self.configuration = configuration
        self.transport = transport
        self.runtime = runtime
        self.tokens = try BearerTokenProvider(
            key: configuration.key,
            bundleIdentifier: configuration.bundleIdentifier,
            policy: configuration.tokenPolicy
        )
        self.limiter = KeyConcurrencyLimits.semaphore(
            for: configuration.key,
            permits: configuration.maximumConcurrentRequests
        )
        self.verifier = JWSVerifier(policy: configuration.verificationPolicy)
    }

    /// Refuses a configuration whose bounds are not positive (``AppStoreServerAPIError/Code/invalidConfiguration``),
    /// as creating a client does; for callers that check settings before they make clients.
    package static func validate(_ configuration: AppStoreServerAPIConfiguration) throws(AppStoreServerAPIError) {
        let bounds: [(name: String, isPositive: Bool)] = [
            ("timeout", configuration.timeout > .zero),
            ("maximumResponseSize", configuration.maximumResponseSize > 0),
            ("maximumPages", configuration.maximumPages > 0),
            ("maximumPagedItems", configuration.maximumPagedItems > 0),
            ("maximumPagingTime", configuration.maximumPagingTime > .zero),
            ("maximumConcurrentRequests", configuration.maximumConcurrentRequests > 0),
            ("retryPolicy.maximumAttempts", configuration.retryPolicy.maximumAttempts > 0),
            ("retryPolicy.maximumTotalTime", configuration.retryPolicy.maximumTotalTime > .zero),
            ("appAppleID", (configuration.appAppleID ?? 1) > 0),
        ]
        for bound in bounds where !bound.isPositive {
            throw AppStoreServerAPIError(.invalidConfiguration, "\(bound.name) must be positive")
        }
    }

    // MARK: Transaction history

    /// Get Transaction History v2, every page (`revision` / `hasMore`), each transaction verified.
    /// - Parameters:
    ///   - transactionID: Any transaction id of the customer.
    ///   - filter: The documented filters, sent with every page.
    ///   - progress: Called after each page with the pages and the transactions read so far.
    /// - Returns: The last page's fields with the transactions of every page, in Apple's order.
    public func transactionHistory(
        transactionID: String,
        filter: TransactionHistoryFilter = TransactionHistoryFilter(),
        progress: (@Sendable (_ pages: Int, _ transactions: Int) -> Void)? = nil
    ) async throws(AppStoreServerAPIError) -> TransactionHistoryResponse<JWSTransactionPayload> {
        let history = try await self.transactionHistorySigned(transactionID: transactionID, filter: filter, progress: progress)
        return history.replacing(history.transactions.map(\.payload))
    }

    /// Get Transaction History v2, every page, each transaction verified and kept with its JWS as Apple sent it.
    public func transactionHistorySigned(
        transactionID: String,
        filter: TransactionHistoryFilter = TransactionHistoryFilter(),
        progress: (@Sendable (_ pages: Int, _ transactions: Int) -> Void)? = nil
    ) async throws(AppStoreServerAPIError) -> TransactionHistoryResponse<SignedValue<JWSTransactionPayload>> {
        let paging = Paging<TransactionHistoryResponse<SignedValue<JWSTransactionPayload>>, SignedValue<JWSTransactionPayload>>(
            tokenName: "revision", items: \.transactions, hasMore: \.hasMore, next: \.revision)
        let (last, all) = try await self.allPages(paging, progress: progress) { revision throws(AppStoreServerAPIError) in
            try await self.transactionHistoryPageSigned(transactionID: transactionID, filter: filter, revision: revision)
        }
        return last.replacing(all)
    }

    /// One page of Get Transaction History v2, each transaction verified.
    ///
    /// `revision`, `hasMore`, `bundleId`, `appAppleId` and `environment` are not signed: a present `bundleId` or
    /// `environment` other than the configuration's is ``AppStoreServerAPIError/Code/malformedResponse``.
    public func transactionHistoryPage(
        transactionID: String,
        filter: TransactionHistoryFilter = TransactionHistoryFilter(),
        revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> TransactionHistoryResponse<JWSTransactionPayload> {
        let page = try await self.transactionHistoryPageSigned(transactionID: transactionID, filter: filter, revision: revision)
        return page.replacing(page.transactions.map(\.payload))
    }

    /// One page of Get Transaction History v2, each transaction verified and kept with its JWS as Apple sent it
    /// (the unsigned fields checked as ``transactionHistoryPage(transactionID:filter:revision:)`` checks them).
    public func transactionHistoryPageSigned(
        transactionID: String,
        filter: TransactionHistoryFilter = TransactionHistoryFilter(),
        revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> TransactionHistoryResponse<SignedValue<JWSTransactionPayload>> {
        let page = try await self.transactionHistoryPageUnverified(
            transactionID: transactionID,
            filter: filter,
            revision: revision
        )
        try self.checkApp(
            bundleIdentifier: page.bundleIdentifier, appAppleID: page.appAppleID, environment: page.environment,
            in: "the history page")
        var signed: [SignedValue<JWSTransactionPayload>] = []
        signed.reserveCapacity(page.transactions.count)
        for jws in page.transactions {
            signed.append(SignedValue(jws: jws, payload: try await self.verify(jws, as: JWSTransactionPayload.self)))
        }
        return page.replacing(signed)
    }

    /// One page of Get Transaction History v2 as sent: the signed transactions are not verified.
    public func transactionHistoryPageUnverified(
        transactionID: String,
        filter: TransactionHistoryFilter = TransactionHistoryFilter(),
        revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> TransactionHistoryResponse<String> {
        try await self.decoded(try .transactionHistory(transactionID, filter: filter, revision: revision))
    }

    // MARK: Transaction info

    /// Get Transaction Info, the transaction verified.
    public func transactionInfo(transactionID: String) async throws(AppStoreServerAPIError) -> JWSTransactionPayload {
        let response = try await self.transactionInfoUnverified(transactionID: transactionID)
        guard let signed = response.signedTransactionInfo else {
            throw AppStoreServerAPIError(.malformedResponse, "the answer has no signedTransactionInfo")
        }
        return try await self.verify(signed, as: JWSTransactionPayload.self)
    }

    /// Get Transaction Info as sent: the signed transaction is not verified.
    public func transactionInfoUnverified(
        transactionID: String
    ) async throws(AppStoreServerAPIError) -> TransactionInfoResponse {
        try await self.decoded(.transactionInfo(transactionID))
    }

    // MARK: App transaction info

    /// Get App Transaction Info: the customer's `AppTransaction` for the app (proof of the app's purchase or
    /// download: original version and purchase date, platform), verified.
    ///
    /// - Parameter transactionID: Any transaction id, original transaction id or app transaction id of the customer.
    /// - Throws: ``AppStoreServerAPIError`` with Apple's ``APIErrorCode/appTransactionDoesNotExist`` (4040019) when
    ///   the customer has no app transaction (an app bought before Apple kept them, say), or any error of the client.
    public func appTransactionInfo(transactionID: String) async throws(AppStoreServerAPIError) -> AppTransactionPayload {
        let response = try await self.appTransactionInfoUnverified(transactionID: transactionID)
        guard let signed = response.signedAppTransactionInfo else {
            throw AppStoreServerAPIError(.malformedResponse, "the answer has no signedAppTransactionInfo")
        }
        return try await self.verify(signed, as: AppTransactionPayload.self)
    }

    /// Get App Transaction Info as sent: the signed app transaction is not verified.
    public func appTransactionInfoUnverified(
        transactionID: String
    ) async throws(AppStoreServerAPIError) -> AppTransactionInfoResponse {
        try await self.decoded(.appTransactionInfo(transactionID))
    }

    // MARK: Subscription statuses

    /// Get All Subscription Statuses, each transaction and renewal info verified.
    ///
    /// Each item's `status` and `originalTransactionId`, and the top-level `bundleId`, `environment` and
    /// `appAppleId`, are not signed. The client checks what it can — an item's `originalTransactionId` must be its
    /// signed transaction's and renewal info's, and a present `bundleId` or `environment` the configuration's, or
    /// the answer is ``AppStoreServerAPIError/Code/malformedResponse`` — but it cannot check `status`: when access
    /// depends on it, derive it from the verified transaction's `expiresDate` and `revocationDate` (and the renewal
    /// info's grace period) instead.
    /// - Parameters:
    ///   - transactionID: Any transaction id of the customer.
    ///   - status: Only subscriptions in these statuses (`status`, repeated); all when empty.
    public func allSubscriptionStatuses(
        transactionID: String,
        status: [SubscriptionStatus] = []
    ) async throws(AppStoreServerAPIError) -> StatusResponse<JWSTransactionPayload, JWSRenewalInfoPayload> {
        try await self.allSubscriptionStatusesSigned(transactionID: transactionID, status: status).mapping(
            transaction: \.payload, renewalInfo: \.payload)
    }

    /// Get All Subscription Statuses, each transaction and renewal info verified and kept with its JWS as Apple
    /// sent it (the unsigned fields checked as ``allSubscriptionStatuses(transactionID:status:)`` checks them).
    public func allSubscriptionStatusesSigned(
        transactionID: String,
        status: [SubscriptionStatus] = []
    ) async throws(AppStoreServerAPIError)
        -> StatusResponse<SignedValue<JWSTransactionPayload>, SignedValue<JWSRenewalInfoPayload>>
    {
        let response = try await self.allSubscriptionStatusesUnverified(transactionID: transactionID, status: status)
        try self.checkApp(
            bundleIdentifier: response.bundleIdentifier, appAppleID: response.appAppleID,
            environment: response.environment, in: "the status answer")
        var groups: [SubscriptionGroupStatus<SignedValue<JWSTransactionPayload>, SignedValue<JWSRenewalInfoPayload>>] = []
        for group in response.data {
            var items: [LastTransaction<SignedValue<JWSTransactionPayload>, SignedValue<JWSRenewalInfoPayload>>] = []
            for item in group.lastTransactions {
                let transaction = try await self.verifyIfPresent(item.transaction, as: JWSTransactionPayload.self)
                let renewalInfo = try await self.verifyIfPresent(item.renewalInfo, as: JWSRenewalInfoPayload.self)
                items.append(
                    LastTransaction(
                        status: item.status,
                        originalTransactionID: try Self.originalTransactionID(
                            item.originalTransactionID,
                            transaction: transaction,
                            renewalInfo: renewalInfo
                        ),
                        transaction: Self.signed(item.transaction, transaction),
                        renewalInfo: Self.signed(item.renewalInfo, renewalInfo)
                    )
                )
            }
            groups.append(
                SubscriptionGroupStatus(
                    subscriptionGroupIdentifier: group.subscriptionGroupIdentifier,
                    lastTransactions: items
                )
            )
        }
        return StatusResponse(
            environment: response.environment,
            bundleIdentifier: response.bundleIdentifier,
            appAppleID: response.appAppleID,
            data: groups
        )
    }

    /// Get All Subscription Statuses as sent: the signed values are not verified.
    public func allSubscriptionStatusesUnverified(
        transactionID: String,
        status: [SubscriptionStatus] = []
    ) async throws(AppStoreServerAPIError) -> StatusResponse<String, String> {
        try await self.decoded(.allSubscriptionStatuses(transactionID, status: status))
    }

    // MARK: Order lookup

    /// Look Up Order ID, each transaction verified.
    ///
    /// `status` is not signed, and Apple's own documented example answers `1` (invalid) with two transactions: the
    /// answer is returned as Apple sent it, its transactions verified. Grant from the verified transactions, not from
    /// `status`.
    public func lookUpOrderID(
        _ orderID: String
    ) async throws(AppStoreServerAPIError) -> OrderLookupResponse<JWSTransactionPayload> {
        let response = try await self.lookUpOrderIDUnverified(orderID)
        return OrderLookupResponse(
            status: response.status,
            transactions: try await self.verifyAll(response.transactions, as: JWSTransactionPayload.self)
        )
    }

    /// Look Up Order ID as sent: the signed transactions are not verified.
    public func lookUpOrderIDUnverified(
        _ orderID: String
    ) async throws(AppStoreServerAPIError) -> OrderLookupResponse<String> {
        try await self.decoded(.lookUpOrderID(orderID))
    }

    // MARK: Refund history

    /// Get Refund History v2, every page (`revision` / `hasMore`), each transaction verified.
    public func refundHistory(
        transactionID: String
    ) async throws(AppStoreServerAPIError) -> RefundHistoryResponse<JWSTransactionPayload> {
        let paging = Paging<RefundHistoryResponse<JWSTransactionPayload>, JWSTransactionPayload>(
            tokenName: "revision", items: \.transactions, hasMore: \.hasMore, next: \.revision)
        let (last, all) = try await self.allPages(paging) { revision throws(AppStoreServerAPIError) in
            try await self.refundHistoryPage(transactionID: transactionID, revision: revision)
        }
        return RefundHistoryResponse(transactions: all, revision: last.revision, hasMore: false)
    }

    /// One page of Get Refund History v2, each transaction verified.
    public func refundHistoryPage(
        transactionID: String,
        revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> RefundHistoryResponse<JWSTransactionPayload> {
        let page = try await self.refundHistoryPageUnverified(transactionID: transactionID, revision: revision)
        return RefundHistoryResponse(
            transactions: try await self.verifyAll(page.transactions, as: JWSTransactionPayload.self),
            revision: page.revision,
            hasMore: page.hasMore
        )
    }

    /// One page of Get Refund History v2 as sent: the signed transactions are not verified.
    public func refundHistoryPageUnverified(
        transactionID: String,
        revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> RefundHistoryResponse<String> {
        try await self.decoded(.refundHistory(transactionID, revision: revision))
    }

    // MARK: Notifications

    /// Get Notification History, every page (`paginationToken`), each notification verified.
    public func notificationHistory(
        _ request: NotificationHistoryRequest
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryResponse<VerifiedNotification> {
        let paging = Paging<NotificationHistoryResponse<VerifiedNotification>, NotificationHistoryItem<VerifiedNotification>>(
            tokenName: "paginationToken", items: \.notificationHistory, hasMore: \.hasMore, next: \.paginationToken)
        let (_, all) = try await self.allPages(paging) { token throws(AppStoreServerAPIError) in
            try await self.notificationHistoryPage(request, paginationToken: token)
        }
        return NotificationHistoryResponse(paginationToken: nil, hasMore: false, notificationHistory: all)
    }

    /// One page of Get Notification History, each notification verified.
    public func notificationHistoryPage(
        _ request: NotificationHistoryRequest,
        paginationToken: String? = nil
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryResponse<VerifiedNotification> {
        let page = try await self.notificationHistoryPageUnverified(request, paginationToken: paginationToken)
        var items: [NotificationHistoryItem<VerifiedNotification>] = []
        for item in page.notificationHistory {
            items.append(try await self.verifiedItem(item))
        }
        return NotificationHistoryResponse(
            paginationToken: page.paginationToken,
            hasMore: page.hasMore,
            notificationHistory: items
        )
    }

    /// One page of Get Notification History as sent: the signed payloads are not verified.
    public func notificationHistoryPageUnverified(
        _ request: NotificationHistoryRequest,
        paginationToken: String? = nil
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryResponse<String> {
        try await self.decoded(try .notificationHistory(request, paginationToken: paginationToken))
    }

    /// Request a Test Notification: Apple sends a `TEST` notification to the app's notification URL.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> SendTestNotificationResponse {
        try await self.decoded(.requestTestNotification)
    }

    /// Get Test Notification Status, the notification verified.
    public func testNotificationStatus(
        testNotificationToken: String
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryItem<VerifiedNotification> {
        try await self.verifiedItem(
            try await self.testNotificationStatusUnverified(testNotificationToken: testNotificationToken)
        )
    }

    /// Get Test Notification Status as sent: the signed payload is not verified.
    public func testNotificationStatusUnverified(
        testNotificationToken: String
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryItem<String> {
        try await self.decoded(.testNotificationStatus(testNotificationToken))
    }

    // MARK: Changes

    /// Send Consumption Information (V2, Apple's current one), after a `CONSUMPTION_REQUEST` notification, for any
    /// In-App Purchase the customer asks a refund for.
    /// - Throws: ``AppStoreServerAPIError/Code/invalidConfiguration`` before anything is sent for a
    ///   `consumptionPercentage` outside 0–100,000; otherwise as every request.
    public func sendConsumptionInformation(
        transactionID: String,
        _ request: ConsumptionRequest
    ) async throws(AppStoreServerAPIError) {
        _ = try await self.perform(try .sendConsumptionInformation(transactionID, request))
    }

    /// Send Consumption Information V1 (integer codes, `/inApps/v1/…`), which Apple has replaced with V2
    /// (``sendConsumptionInformation(transactionID:_:)``); for consumables and auto-renewable subscriptions.
    public func sendConsumptionInformationV1(
        transactionID: String,
        _ request: ConsumptionRequestV1
    ) async throws(AppStoreServerAPIError) {
        _ = try await self.perform(.sendConsumptionInformationV1(transactionID, request))
    }

    /// Extend a Subscription Renewal Date.
    public func extendSubscriptionRenewalDate(
        originalTransactionID: String,
        _ request: ExtendRenewalDateRequest
    ) async throws(AppStoreServerAPIError) -> ExtendRenewalDateResponse {
        try await self.decoded(.extendSubscriptionRenewalDate(originalTransactionID, request))
    }

    /// Set App Account Token: sets or replaces the `appAccountToken` of a purchase.
    /// - Parameters:
    ///   - originalTransactionID: The purchase's original transaction id.
    ///   - appAccountToken: The UUID, in its text form (Apple refuses anything else with
    ///     ``APIErrorCode/invalidAppAccountTokenUUID``).
    public func setAppAccountToken(
        originalTransactionID: String,
        appAccountToken: String
    ) async throws(AppStoreServerAPIError) {
        _ = try await self.perform(.setAppAccountToken(originalTransactionID, appAccountToken: appAccountToken))
    }

    // MARK: Verification

    func verify<Payload: AppStoreSignedPayload>(
        _ jws: String,
        as type: Payload.Type
    ) async throws(AppStoreServerAPIError) -> Payload {
        let result: JWSVerificationResult<Payload>
        do {
            result = try await self.verifier.verify(jws, as: type, now: self.runtime.now())
        } catch {
            throw AppStoreServerAPIError(.malformedSignedData, "a signed \(Payload.kind) is malformed: \(error.reason)")
        }
        guard result.isValid else {
            let codes = result.failures.map(\.code).joined(separator: ", ")
            throw AppStoreServerAPIError(
                .untrustedSignedData,
                "a signed \(Payload.kind) did not verify: \(codes)",
                verificationFailures: result.failures
            )
        }
        return result.payload
    }

    func verifyIfPresent<Payload: AppStoreSignedPayload>(
        _ jws: String?,
        as type: Payload.Type
    ) async throws(AppStoreServerAPIError) -> Payload? {
        guard let jws else { return nil }
        return try await self.verify(jws, as: type)
    }

    /// A JWS and the payload it verified to, when both are there.
    static func signed<Payload>(_ jws: String?, _ payload: Payload?) -> SignedValue<Payload>? {
        guard let jws, let payload else { return nil }
        return SignedValue(jws: jws, payload: payload)
    }

    func verifyAll<Payload: AppStoreSignedPayload>(
        _ values: [String],
        as type: Payload.Type
    ) async throws(AppStoreServerAPIError) -> [Payload] {
        var payloads: [Payload] = []
        payloads.reserveCapacity(values.count)
        for value in values { payloads.append(try await self.verify(value, as: type)) }
        return payloads
    }

    func verifyNotification(_ signedPayload: String) async throws(AppStoreServerAPIError) -> VerifiedNotification {
        let result: NotificationVerificationResult
        do {
            result = try await self.verifier.verifyNotification(signedPayload, now: self.runtime.now())
        } catch {
            throw AppStoreServerAPIError(.malformedSignedData, "a signed notification is malformed: \(error.reason)")
        }
        guard result.isValid else {
            let verdict = JWSVerdict(result)
            let failures =
                result.notification.failures + (result.transaction?.failures ?? [])
                + (result.renewalInfo?.failures ?? [])
                + (result.appTransaction?.failures ?? [])
            throw AppStoreServerAPIError(
                .untrustedSignedData,
                "a signed notification did not verify: \(verdict.reasons.joined(separator: ", "))",
                verificationFailures: failures
            )
        }
        return VerifiedNotification(
            payload: result.notification.payload,
            transaction: result.transaction?.payload,
            renewalInfo: result.renewalInfo?.payload,
            appTransaction: result.appTransaction?.payload
        )
    }

    func verifiedItem(
        _ item: NotificationHistoryItem<String>
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryItem<VerifiedNotification> {
        var notification: VerifiedNotification? = nil
        if let signed = item.notification { notification = try await self.verifyNotification(signed) }
        return NotificationHistoryItem(notification: notification, sendAttempts: item.sendAttempts)
    }
}
