public import struct Foundation.Date

/// What ``AppStoreServerAPIClient`` takes from the world: the time (token `iat`, HTTP-date `Retry-After`, the
/// instant signed data is verified at), the waits between retries, and the jitter. Tests pin all three.
public struct APIClientRuntime: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// Waits; throws when the task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in `0 ..< 1` for the backoff's jitter.
    public var random: @Sendable () -> Double

    public init(
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        random: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.random = random
    }

    /// The system clock, `Task.sleep` and the system random source.
    public static let live = APIClientRuntime(
        now: { Date() },
        sleep: { duration in try await Task.sleep(for: duration) },
        random: { Double.random(in: 0..<1) }
    )
}
