import Foundation
import AppStoreJWS
import _ReceiptKitShared

extension AppStoreServerAPIClient {
    static let userAgent = "ReceiptKit-AppStoreServerAPI/1"
    /// How deep an answer's JSON may nest (Apple's documented answers nest four levels).
    static let maximumAnswerDepth = 32

    /// Sends `endpoint` and decodes a success's JSON body as `T`: read first by the package's strict parser (a name
    /// given twice, which Foundation's decoder would settle silently, invalid UTF-8 or trailing text refuse the
    /// answer), then decoded.
    func decoded<T: Decodable>(_ endpoint: Endpoint) async throws(AppStoreServerAPIError) -> T {
        let response = try await self.perform(endpoint)
        do {
            _ = try JSONParser.parse(response.body, maximumDepth: Self.maximumAnswerDepth)
        } catch {
            throw AppStoreServerAPIError(
                .malformedResponse,
                "the answer to \(endpoint.method) \(endpoint.path) is not strict JSON: \(error.reason)",
                httpStatus: response.status
            )
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.body))
        } catch {
            throw AppStoreServerAPIError(
                .malformedResponse,
                "the answer to \(endpoint.method) \(endpoint.path) is not the documented JSON",
                httpStatus: response.status
            )
        }
    }

    /// Sends `endpoint` until a success or an answer not to retry, as the retry policy says, within its
    /// ``RetryPolicy/maximumTotalTime`` on the runtime's clock.
    /// - Returns: The 2xx answer.
    func perform(_ endpoint: Endpoint) async throws(AppStoreServerAPIError) -> HTTPTransportResponse {
        let policy = self.configuration.retryPolicy
        let attempts = max(1, policy.maximumAttempts)
        let start = self.runtime.now()
        var waited: Duration = .zero
        var attempt = 0
        var last: AppStoreServerAPIError? = nil
        while true {
            attempt += 1
            if Task.isCancelled { throw AppStoreServerAPIError(.cancelled, "the task was cancelled") }
            let left = self.remaining(of: policy.maximumTotalTime, since: start)
            if let last, left <= .zero { throw last }
            // The attempt's timeout is taken once it has a turn under the per-key bound: time spent queued for
            // one counts against the total too, and an attempt whose total time is spent by then is not sent.
            let outcome = try await self.attempt(endpoint) { [self] in
                let left = self.remaining(of: policy.maximumTotalTime, since: start)
                return left > .zero ? min(self.configuration.timeout, left) : nil
            }
            let wait: Duration
            switch outcome {
            case .success(let response):
                return response
            case .notSent(let error):
                // The total time ran out while queued: what the last attempt met says more than that.
                throw last ?? error
            case .final(let error):
                throw error
            case .retryable(let error, let retryAfter):
                guard attempt < attempts else { throw error }
                wait = retryAfter ?? policy.backoff(retry: attempt, unit: self.runtime.random())
                guard waited + wait <= policy.maximumTotalDelay else { throw error }
                // A wait that leaves no time for the next attempt is not made.
                guard wait < self.remaining(of: policy.maximumTotalTime, since: start) else { throw error }
                last = error
            }
            do {
                try await self.runtime.sleep(wait)
            } catch {
                throw AppStoreServerAPIError(.cancelled, "the task was cancelled while waiting to retry")
            }
            waited += wait
        }
    }

    /// What is left of `total` since `start` on the runtime's clock: `total` when the clock went back, zero when
    /// it is spent.
    private func remaining(of total: Duration, since start: Date) -> Duration {
        let seconds = self.runtime.now().timeIntervalSince(start)
        guard seconds.isFinite, seconds > 0 else { return total }
        // Whole milliseconds, saturating: a clock far ahead spends everything instead of overflowing.
        let elapsed = DurationConversion.duration(seconds: min(seconds, 1e9))
        return elapsed >= total ? .zero : total - elapsed
    }

    enum Outcome {
        case success(HTTPTransportResponse)
        /// Worth another attempt; `retryAfter` is Apple's ask on a 429.
        case retryable(AppStoreServerAPIError, retryAfter: Duration?)
        case final(AppStoreServerAPIError)
        /// Not sent: the total time was spent while the attempt waited for a turn under the per-key bound.
        case notSent(AppStoreServerAPIError)
    }

    /// One exchange, classified; `timeout` is asked for once the exchange has its turn under the per-key bound.
    func attempt(
        _ endpoint: Endpoint,
        timeout: @escaping @Sendable () -> Duration?
    ) async throws(AppStoreServerAPIError) -> Outcome {
        let token = try self.tokens.token(now: self.runtime.now())
        var headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer \(token.compact)"),
            ("Accept", "application/json"),
            ("User-Agent", Self.userAgent),
        ]
        let body = endpoint.body.map(\.serialized)
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let request = HTTPTransportRequest(
            method: endpoint.method,
            url: self.configuration.baseURL + endpoint.target,
            headers: headers,
            body: body
        )
        let transport = self.transport
        let limit = self.configuration.maximumResponseSize
        // nil: cancelled while waiting for a turn; .some(nil): the turn came after the total time was spent.
        let sent = await self.limiter.withPermit { () async -> Result<HTTPTransportResponse, HTTPTransportFailure>? in
            guard let timeout = timeout() else { return nil }
            do throws(HTTPTransportFailure) {
                return .success(try await transport.send(request, timeout: timeout, maximumResponseSize: limit))
            } catch {
                return .failure(error)
            }
        }
        guard let sent else { throw AppStoreServerAPIError(.cancelled, "the task was cancelled waiting for a turn") }
        guard let sent else {
            return .notSent(
                AppStoreServerAPIError(.unreachable, "\(endpoint.method) \(endpoint.path): the total time was spent waiting for a turn"))
        }
        switch sent {
        case .success(let response):
            return self.classify(response, endpoint: endpoint)
        case .failure(let failure):
            switch failure.kind {
            case .connection, .timeout:
                let error = AppStoreServerAPIError(.unreachable, "\(endpoint.method) \(endpoint.path): \(failure.description)")
                // It may have reached Apple: a request that is not idempotent is not sent twice.
                return endpoint.retriesOnceSent ? .retryable(error, retryAfter: nil) : .final(error)
            case .responseTooLarge:
                return .final(
                    AppStoreServerAPIError(
                        .responseTooLarge,
                        "the answer to \(endpoint.method) \(endpoint.path) is over \(limit) bytes"
                    )
                )
            case .cancelled:
                return .final(AppStoreServerAPIError(.cancelled, "the request was cancelled"))
            default:
                return .final(
                    AppStoreServerAPIError(
                        .invalidConfiguration,
                        "the request could not be sent: \(failure.description)"
                    )
                )
            }
        }
    }

    func classify(_ response: HTTPTransportResponse, endpoint: Endpoint) -> Outcome {
        let status = response.status
        if (200..<300).contains(status) { return .success(response) }
        // Apple's error body is detail for the message: one the strict parser refuses gives none.
        let apple =
            (try? JSONParser.parse(response.body, maximumDepth: Self.maximumAnswerDepth)) == nil
            ? nil : try? JSONDecoder().decode(APIErrorResponse.self, from: Data(response.body))
        let what = "\(endpoint.method) \(endpoint.path) answered HTTP \(status)"
        let detail = [apple?.errorCode.map { "errorCode \($0)" }, apple?.errorMessage].compactMap { $0 }.joined(
            separator: ": "
        )
        let reason = detail.isEmpty ? what : "\(what) (\(detail))"
        func error(_ code: AppStoreServerAPIError.Code, retryAfter: Duration? = nil) -> AppStoreServerAPIError {
            AppStoreServerAPIError(
                code,
                reason,
                httpStatus: status,
                apiErrorCode: apple?.errorCode,
                errorMessage: apple?.errorMessage,
                retryAfter: retryAfter
            )
        }
        switch status {
        case 401:
            return .final(error(.unauthorized))
        case 403 where apple?.errorCode?.isForbiddenRequest == true:
            // Apple's 403 family (4030004 "subscription state ineligible for extension", …) refuses this request,
            // not the key: an API error of its code, which stops nothing else.
            return .final(error(.apiError))
        case 403:
            return .final(error(.forbidden))
        case 429:
            let retryAfter = response.header("Retry-After").flatMap { RetryAfter.delay($0, now: self.runtime.now()) }
            return .retryable(error(.rateLimited, retryAfter: retryAfter), retryAfter: retryAfter)
        case 500..<600:
            // Apple may have acted before it failed: a request that is not idempotent is not sent twice.
            return endpoint.retriesOnceSent ? .retryable(error(.serverError), retryAfter: nil) : .final(error(.serverError))
        case _ where apple?.errorCode?.isRetryable == true:
            // Apple documents these as "resend the same request" (4040002, 4040004, 4040006).
            return .retryable(error(.apiError), retryAfter: nil)
        default:
            return .final(error(.apiError))
        }
    }
}
