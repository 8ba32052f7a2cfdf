public import struct Foundation.Date

/// The simulator's clock while a timeline plays: from the first event, timeline time runs ``speed`` times as fast
/// as the real clock, and never ahead of it — so every `signedDate` is in the past for the backend, and once the
/// timeline is over the simulator's clock is the real one.
public struct ScenarioClock: Sendable, Hashable {
    /// The timeline's first moment.
    public var timelineStart: Date
    /// The real moment the play began.
    public var launch: Date
    public var speed: Double

    public init(timelineStart: Date, launch: Date, speed: Double) {
        self.timelineStart = timelineStart
        self.launch = launch
        self.speed = speed
    }

    /// Timeline time at the real moment `wall`.
    public func simulated(at wall: Date) -> Date {
        let elapsed = max(0, wall.timeIntervalSince(self.launch))
        let played = self.timelineStart.addingTimeInterval(elapsed * self.speed)
        return min(played, wall)
    }

    /// The real moment timeline time reaches `moment`.
    public func wall(for moment: Date) -> Date {
        self.launch.addingTimeInterval(max(0, moment.timeIntervalSince(self.timelineStart)) / self.speed)
    }
}
