import _ReceiptKitShared

/// When ``AppStoreServerAPIClient`` asks again: HTTP 429 after Apple's `Retry-After`, HTTP 5xx and failed or timed-out
/// connections after a jittered exponential backoff — each within ``maximumAttempts``, a total
/// ``maximumTotalDelay`` of waiting and ``maximumTotalTime`` for the request, attempts and waits together. No other
/// status is retried: a 4xx is an answer.
///
/// ```swift
/// var retry = RetryPolicy.default
/// retry.maximumAttempts = 5
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included (1: never retry). Default 3.
    public var maximumAttempts: Int
    /// The most time spent waiting between attempts, all waits together; a wait that would pass it is not made and
    /// the last failure is thrown instead. Default 30 seconds.
    public var maximumTotalDelay: Duration
    /// The backoff's first step: before retry `n` (from 1) the client waits a random time in
    /// `0 ... min(maximumDelay, baseDelay × 2ⁿ⁻¹)` ("full jitter"). Default 0.5 seconds.
    public var baseDelay: Duration
    /// The longest backoff step. Default 8 seconds.
    public var maximumDelay: Duration
    /// The most time one request may take, every attempt and every wait together, measured on the client's clock
    /// (``APIClientRuntime/now``) from the first attempt. Before each attempt the client checks what is left: each
    /// attempt's timeout is cut to it, a wait that would leave nothing is not made, and the last failure is thrown
    /// instead. It bounds one request: a call that follows pages gets it for each page. Must be positive. Default 60
    /// seconds.
    public var maximumTotalTime: Duration

    public init(
        maximumAttempts: Int = 3,
        maximumTotalDelay: Duration = .seconds(30),
        baseDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(8),
        maximumTotalTime: Duration = .seconds(60)
    ) {
        self.maximumAttempts = maximumAttempts
        self.maximumTotalDelay = maximumTotalDelay
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumTotalTime = maximumTotalTime
    }

    /// Three attempts within 30 seconds of waiting and 60 seconds in all.
    public static let `default` = RetryPolicy()
    /// One attempt.
    public static let never = RetryPolicy(maximumAttempts: 1, maximumTotalDelay: .zero)

    /// The backoff before retry `retry` (1 for the first retry), for a `unit` in `0 ..< 1` from the random source.
    public func backoff(retry: Int, unit: Double) -> Duration {
        // In seconds as Double: a large base or a late retry saturates at `maximumDelay` instead of overflowing.
        let growth = Double(sign: .plus, exponent: min(max(retry - 1, 0), 62), significand: 1)
        let ceiling = min(DurationConversion.seconds(self.maximumDelay), DurationConversion.seconds(self.baseDelay) * growth)
        let fraction = unit.isFinite ? min(max(unit, 0), 1) : 0
        let delay = min(max(0, ceiling * fraction), 1e9)  // at most about 31 years: always representable
        return DurationConversion.duration(seconds: delay)
    }
}
