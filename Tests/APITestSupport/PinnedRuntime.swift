public import AppStoreServerAPI
public import Foundation
import NIOConcurrencyHelpers

/// A pinned clock and a sleep that only records (and, when asked, moves the clock on by what it slept).
public final class PinnedRuntime: Sendable {
    private let slept = NIOLockedValueBox<[Duration]>([])
    private let time: NIOLockedValueBox<Date>
    private let reads = NIOLockedValueBox(0)
    public let unit: Double
    public let sleepAdvancesClock: Bool

    public init(now: Date = Date(timeIntervalSince1970: 1_750_000_000), unit: Double = 0.5, sleepAdvancesClock: Bool = false) {
        self.time = NIOLockedValueBox(now)
        self.unit = unit
        self.sleepAdvancesClock = sleepAdvancesClock
    }

    public var sleeps: [Duration] { self.slept.withLockedValue { $0 } }
    public var now: Date { self.time.withLockedValue { $0 } }
    /// How many times the client read the clock (tests wait on it to know a request has started).
    public var clockReads: Int { self.reads.withLockedValue { $0 } }
    public func advance(_ seconds: Double) { self.time.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }

    public var runtime: APIClientRuntime {
        APIClientRuntime(
            now: {
                self.reads.withLockedValue { $0 += 1 }
                return self.now
            },
            sleep: { duration in
                self.slept.withLockedValue { $0.append(duration) }
                if self.sleepAdvancesClock {
                    let (seconds, attoseconds) = duration.components
                    self.advance(Double(seconds) + Double(attoseconds) / 1e18)
                }
            },
            random: { self.unit }
        )
    }
}
