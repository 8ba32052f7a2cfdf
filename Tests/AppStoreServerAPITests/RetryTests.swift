@testable import AppStoreServerAPI
import APITestSupport
import AppStorePKI
import Foundation
import Testing

/// What is retried and for how long, on a scripted transport with a pinned clock, sleep and jitter.
struct RetryTests {
    static let info = #"{"signedTransactionInfo":"x"}"#
    static let rateLimited = #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#

    func run(
        _ steps: [ScriptedTransport.Step],
        runtime: PinnedRuntime = PinnedRuntime(),
        policy: RetryPolicy = .default
    )
        async throws -> (Result<TransactionInfoResponse, AppStoreServerAPIError>, ScriptedTransport)
    {
        let transport = ScriptedTransport(steps)
        let client = try TestClients.client(transport, runtime: runtime) { $0.retryPolicy = policy }
        do {
            return (.success(try await client.transactionInfoUnverified(transactionID: "1")), transport)
        } catch {
            return (.failure(error), transport)
        }
    }

    @Test func a429WaitsForRetryAfterSecondsThenSucceeds() async throws {
        let runtime = PinnedRuntime()
        let (result, transport) = try await run(
            [
                ScriptedTransport.json(429, Self.rateLimited, headers: [("Retry-After", "7")]),
                ScriptedTransport.json(200, Self.info),
            ],
            runtime: runtime
        )
        #expect(try result.get().signedTransactionInfo == "x")
        #expect(transport.requests.count == 2)
        #expect(runtime.sleeps == [.seconds(7)])
    }

    @Test func a429WaitsForAnHTTPDateRetryAfter() async throws {
        let runtime = PinnedRuntime(now: Date(timeIntervalSince1970: 1_750_000_000))  // Sun, 15 Jun 2025 15:06:40 GMT
        let (result, _) = try await run(
            [
                ScriptedTransport.json(429, "", headers: [("Retry-After", "Sun, 15 Jun 2025 15:06:52 GMT")]),
                ScriptedTransport.json(200, Self.info),
            ],
            runtime: runtime
        )
        #expect(throws: Never.self) { try result.get() }
        #expect(runtime.sleeps == [.seconds(12)])
    }

    @Test func aRetryAfterPastTheTotalBoundIsNotWaitedFor() async throws {
        let runtime = PinnedRuntime()
        let (result, transport) = try await run(
            [ScriptedTransport.json(429, Self.rateLimited, headers: [("Retry-After", "120")])],
            runtime: runtime
        )
        guard case .failure(let error) = result else {
            Issue.record("expected rate_limited")
            return
        }
        #expect(error.code == .rateLimited)
        #expect(error.retryAfter == .seconds(120))
        #expect(error.apiErrorCode == .rateLimitExceeded)
        #expect(transport.requests.count == 1)
        #expect(runtime.sleeps == [])
    }

    @Test func stillRateLimitedAfterEveryAttemptIsRateLimited() async throws {
        let runtime = PinnedRuntime()
        let answer = ScriptedTransport.json(429, Self.rateLimited, headers: [("Retry-After", "2")])
        let (result, transport) = try await run([answer, answer, answer, answer], runtime: runtime)
        guard case .failure(let error) = result else {
            Issue.record("expected rate_limited")
            return
        }
        #expect(error.code == .rateLimited)
        #expect(error.retryAfter == .seconds(2))
        #expect(error.isRetryable)
        #expect(transport.requests.count == 3)  // RetryPolicy.default.maximumAttempts
        #expect(runtime.sleeps == [.seconds(2), .seconds(2)])
    }

    @Test func a5xxIsRetriedWithJitteredBackoffThenIsAServerError() async throws {
        let runtime = PinnedRuntime(unit: 0.5)
        let answer = ScriptedTransport.json(503, "")
        let (result, transport) = try await run([answer, answer, answer, answer], runtime: runtime)
        guard case .failure(let error) = result else {
            Issue.record("expected server_error")
            return
        }
        #expect(error.code == .serverError)
        #expect(error.httpStatus == 503)
        #expect(transport.requests.count == 3)
        // Full jitter at 0.5: half of 0.5 s, then half of 1 s.
        #expect(runtime.sleeps == [.milliseconds(250), .milliseconds(500)])
    }

    @Test func aServerErrorThenSuccessSucceeds() async throws {
        let (result, transport) = try await run([
            ScriptedTransport.json(500, ""), ScriptedTransport.json(200, Self.info),
        ])
        #expect(try result.get().signedTransactionInfo == "x")
        #expect(transport.requests.count == 2)
    }

    @Test func connectionFailuresAndTimeoutsAreRetriedThenUnreachable() async throws {
        let (result, transport) = try await run([
            .fail(.connection), .fail(.timeout), .fail(.connection), .fail(.connection),
        ])
        guard case .failure(let error) = result else {
            Issue.record("expected unreachable")
            return
        }
        #expect(error.code == .unreachable)
        #expect(error.httpStatus == nil)
        #expect(transport.requests.count == 3)
    }

    @Test func theTotalDelayBoundsTheBackoff() async throws {
        let runtime = PinnedRuntime(unit: 0.99)
        let policy = RetryPolicy(
            maximumAttempts: 10,
            maximumTotalDelay: .seconds(2),
            baseDelay: .seconds(1),
            maximumDelay: .seconds(8)
        )
        let (result, transport) = try await run(
            Array(repeating: .fail(.connection), count: 10),
            runtime: runtime,
            policy: policy
        )
        guard case .failure(let error) = result else {
            Issue.record("expected unreachable")
            return
        }
        #expect(error.code == .unreachable)
        // 0.99 s is waited; the next 1.98 s would pass 2 s in all, so the client stops.
        #expect(runtime.sleeps == [.milliseconds(990)])
        #expect(transport.requests.count == 2)
    }

    @Test func theTotalTimeBoundsAttemptsAndWaitsTogether() async throws {
        // Each attempt takes 25 s on the clock before the connection fails; waits move the clock too.
        let runtime = PinnedRuntime(unit: 0.5, sleepAdvancesClock: true)
        let transport = ScriptedTransport(
            Array(repeating: .failAfter(.timeout, seconds: 25), count: 10),
            clock: runtime
        )
        let client = try TestClients.client(transport, runtime: runtime) {
            $0.timeout = .seconds(30)
            $0.retryPolicy = RetryPolicy(maximumAttempts: 10, maximumTotalDelay: .seconds(30))
        }
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfoUnverified(transactionID: "1")
        }
        #expect(error?.code == .unreachable)
        // 60 s in all (the default): 25 s, a 0.25 s wait, 25 s, a 0.5 s wait, then only 9.25 s are left for the
        // third attempt's timeout, and none for a fourth — though attempts and waiting both had room.
        #expect(transport.timeouts == [.seconds(30), .seconds(30), .milliseconds(9_250)])
        #expect(runtime.sleeps == [.milliseconds(250), .milliseconds(500)])
    }

    @Test func aWaitThatLeavesNoTimeForAnotherAttemptIsNotMade() async throws {
        let runtime = PinnedRuntime(sleepAdvancesClock: true)
        let transport = ScriptedTransport([
            ScriptedTransport.json(429, Self.rateLimited, headers: [("Retry-After", "10")]),
            ScriptedTransport.json(200, Self.info),
        ])
        let client = try TestClients.client(transport, runtime: runtime) {
            $0.retryPolicy = RetryPolicy(maximumTotalTime: .seconds(10))
        }
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfoUnverified(transactionID: "1")
        }
        #expect(error?.code == .rateLimited)
        #expect(error?.retryAfter == .seconds(10))
        #expect(transport.requests.count == 1)
        #expect(runtime.sleeps == [])
    }

    @Test(arguments: [400, 404, 409, 422])
    func otherClientErrorsAreNotRetried(status: Int) async throws {
        let runtime = PinnedRuntime()
        let (result, transport) = try await run(
            [
                ScriptedTransport.json(status, #"{"errorCode":4000006,"errorMessage":"Invalid transaction id."}"#),
                ScriptedTransport.json(200, Self.info),
            ],
            runtime: runtime
        )
        guard case .failure(let error) = result else {
            Issue.record("expected api_error")
            return
        }
        #expect(error.code == .apiError)
        #expect(error.apiErrorCode == .invalidTransactionID)
        #expect(error.httpStatus == status)
        #expect(!error.isRetryable)
        #expect(transport.requests.count == 1)
        #expect(runtime.sleeps == [])
    }

    @Test func unauthorizedAndForbiddenAreDistinctAndNotRetried() async throws {
        let (unauthorized, first) = try await run([
            ScriptedTransport.json(401, ""), ScriptedTransport.json(200, Self.info),
        ])
        let (forbidden, second) = try await run([
            ScriptedTransport.json(403, ""), ScriptedTransport.json(200, Self.info),
        ])
        guard case .failure(let a) = unauthorized, case .failure(let b) = forbidden else {
            Issue.record("expected failures")
            return
        }
        #expect(a.code == .unauthorized)
        #expect(a.httpStatus == 401)
        #expect(b.code == .forbidden)
        #expect(b.httpStatus == 403)
        #expect(first.requests.count == 1)
        #expect(second.requests.count == 1)
    }

    @Test("a 403 with one of Apple's request error codes is an API error of that code, not a refused key",
          arguments: [APIErrorCode.subscriptionExtensionIneligible, .subscriptionMaxExtension,
                      .familySharedSubscriptionExtensionIneligible, .messageNotApproved, .forbiddenNoPassingTest])
    func aForbiddenRequestIsAnAPIError(code: APIErrorCode) async throws {
        let (result, transport) = try await run([
            ScriptedTransport.json(403, #"{"errorCode":\#(code.rawValue),"errorMessage":"Forbidden - subscription state ineligible for extension."}"#),
            ScriptedTransport.json(200, Self.info),
        ])
        guard case .failure(let error) = result else {
            Issue.record("expected api_error")
            return
        }
        #expect(error.code == .apiError)
        #expect(error.apiErrorCode == code)
        #expect(error.httpStatus == 403)
        #expect(!error.isRetryable)
        #expect(transport.requests.count == 1)
    }

    @Test("a 403 naming no code of Apple's 403 family is the key refused", arguments: ["", #"{"errorCode":4000006}"#, #"{"errorCode":4030000,"errorMessage":"Forbidden."}"#, "{}"])
    func aForbiddenKeyIsForbidden(body: String) async throws {
        let (result, transport) = try await run([ScriptedTransport.json(403, body), ScriptedTransport.json(200, Self.info)])
        guard case .failure(let error) = result else {
            Issue.record("expected forbidden")
            return
        }
        #expect(error.code == .forbidden)
        #expect(transport.requests.count == 1)
    }

    @Test("Apple's retryable 404s are retried, as Apple documents them (resend the same request)",
          arguments: [APIErrorCode.accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIDNotFoundRetryable])
    func retryableNotFoundIsRetried(code: APIErrorCode) async throws {
        let runtime = PinnedRuntime()
        let (result, transport) = try await run(
            [
                ScriptedTransport.json(404, #"{"errorCode":\#(code.rawValue),"errorMessage":"Not found. Try again."}"#),
                ScriptedTransport.json(200, Self.info),
            ],
            runtime: runtime)
        guard case .success = result else {
            Issue.record("expected the retry to succeed: \(result)")
            return
        }
        #expect(transport.requests.count == 2)
        #expect(runtime.sleeps.count == 1)
        // Retried no more than the policy allows: three of them fail as the API error of that code.
        let (again, exhausted) = try await run(
            Array(repeating: ScriptedTransport.json(404, #"{"errorCode":\#(code.rawValue)}"#), count: 4))
        guard case .failure(let error) = again else {
            Issue.record("expected api_error")
            return
        }
        #expect(error.code == .apiError)
        #expect(error.apiErrorCode == code)
        #expect(error.isRetryable)
        #expect(exhausted.requests.count == 3)
    }

    @Test func anOversizedAnswerIsRefused() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(200, String(repeating: " ", count: 100) + Self.info)])
        let client = try TestClients.client(transport) { $0.maximumResponseSize = 64 }
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfoUnverified(transactionID: "1")
        }
        #expect(error?.code == .responseTooLarge)
        #expect(transport.requests.count == 1)
    }

    @Test func theDefaultsAreBounded() {
        let policy = RetryPolicy.default
        #expect(policy.maximumAttempts == 3)
        #expect(policy.maximumTotalDelay == .seconds(30))
        #expect(policy.maximumTotalTime == .seconds(60))
        #expect(policy.backoff(retry: 1, unit: 1) == .milliseconds(500))
        #expect(policy.backoff(retry: 10, unit: 1) == .seconds(8))
        #expect(policy.backoff(retry: 1_000, unit: 1) == .seconds(8))
        #expect(policy.backoff(retry: 3, unit: .nan) == .zero)
        #expect(policy.backoff(retry: Int.max, unit: 1) == .seconds(8))
        let huge = RetryPolicy(baseDelay: .seconds(Int64.max / 2), maximumDelay: .seconds(Int64.max / 2))
        #expect(huge.backoff(retry: Int.max, unit: 1) == .seconds(1_000_000_000))
    }

    @Test func retryAfterReadsSecondsAndIMFDatesOnly() {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(RetryAfter.delay("0", now: now) == .zero)
        #expect(RetryAfter.delay(" 30 ", now: now) == .seconds(30))
        #expect(RetryAfter.delay("99999999999999999999", now: now) == .seconds(86_400))
        #expect(RetryAfter.delay("Sun, 15 Jun 2025 15:06:41 GMT", now: now) == .seconds(1))
        #expect(RetryAfter.delay("Sun, 15 Jun 2025 15:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay("-5", now: now) == nil)
        #expect(RetryAfter.delay("soon", now: now) == nil)
        #expect(RetryAfter.delay("Sunday, 15-Jun-25 15:06:41 GMT", now: now) == nil)
        #expect(RetryAfter.delay("Sun, 31 Feb 2025 15:06:41 GMT", now: now) == nil)
    }

    @Test func cancellationWhileWaitingToRetryIsCancelled() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(503, ""), ScriptedTransport.json(200, Self.info)])
        let pinned = PinnedRuntime()
        var runtime = pinned.runtime
        runtime.sleep = { _ in throw CancellationError() }
        var configuration = try AppStoreServerAPIConfiguration(
            key: try TestClients.key(),
            bundleIdentifier: TestClients.bundleIdentifier,
            environment: .sandbox,
            baseURL: "http://127.0.0.1:1"
        )
        configuration.retryPolicy = .default
        let client = try AppStoreServerAPIClient(configuration: configuration, transport: transport, runtime: runtime)
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client.transactionInfoUnverified(transactionID: "1")
        }
        #expect(error?.code == .cancelled)
        #expect(transport.requests.count == 1)
    }

    @Test func aCancelledTaskSendsNothing() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(200, Self.info)])
        let client = try TestClients.client(transport)
        let task = Task {
            try? await Task.sleep(for: .seconds(60))  // returns early, cancelled
            return try await client.transactionInfoUnverified(transactionID: "1")
        }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as AppStoreServerAPIError) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(error.code == .cancelled)
        #expect(transport.requests.isEmpty)
    }

    /// Issue 48: a request Apple does not document as idempotent (a test notification, an extension) is never sent
    /// again once it may have reached Apple — a failed connection, a timeout, a 5xx — while a 429 (nothing done) is
    /// retried after Retry-After; the idempotent ones keep retrying (above).
    @Test(arguments: ["test-notification", "extend"])
    func aRequestThatIsNotIdempotentIsSentOnceWhenItMayHaveReachedApple(call: String) async throws {
        let answer = call == "test-notification"
            ? #"{"testNotificationToken":"t"}"#
            : #"{"originalTransactionId":"1000","webOrderLineItemId":"1","success":true,"effectiveDate":1}"#
        func send(_ steps: [ScriptedTransport.Step]) async throws -> (AppStoreServerAPIError?, Int) {
            let transport = ScriptedTransport(steps)
            let client = try TestClients.client(transport)
            do throws(AppStoreServerAPIError) {
                if call == "test-notification" {
                    _ = try await client.requestTestNotification()
                } else {
                    _ = try await client.extendSubscriptionRenewalDate(
                        originalTransactionID: "1000",
                        ExtendRenewalDateRequest(extendByDays: 30, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "r"))
                }
                return (nil, transport.requests.count)
            } catch {
                return (error, transport.requests.count)
            }
        }
        let failed = try await send([ScriptedTransport.json(503, "{}"), ScriptedTransport.json(200, answer)])
        #expect(failed.0?.code == .serverError)
        #expect(failed.1 == 1)
        for kind in [HTTPTransportFailure.Kind.connection, .timeout] {
            let lost = try await send([.fail(kind), ScriptedTransport.json(200, answer)])
            #expect(lost.0?.code == .unreachable)
            #expect(lost.1 == 1)
        }
        let limited = try await send([
            ScriptedTransport.json(429, "{}", headers: [("Retry-After", "1")]), ScriptedTransport.json(200, answer),
        ])
        #expect(limited.0 == nil, "\(String(describing: limited.0))")
        #expect(limited.1 == 2)
    }
}
