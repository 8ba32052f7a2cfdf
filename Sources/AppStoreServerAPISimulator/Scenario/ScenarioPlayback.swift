/// How a ``ScenarioPlayer`` misbehaves as the App Store does: notifications out of order, sent twice, or never
/// delivered, and how fast the timeline runs.
public struct ScenarioPlayback: Sendable, Hashable {
    /// Sends the notifications in a random order (at the moments the timeline has, so the pace is kept).
    public var shuffle = false
    /// The share of notifications sent a second time, later (0 to 1).
    public var duplicateRate = 0.0
    /// The share of notifications never delivered: Get Notification History lists them with a failed attempt
    /// (0 to 1).
    public var dropRate = 0.0
    /// Timeline seconds per real second: 86,400 plays a day a second. Must be positive.
    public var speed = 1.0
    /// Chooses what is shuffled, duplicated and dropped, and the timeline's UUIDs and identifiers.
    public var seed: UInt64 = 0
    /// How long a POST may take.
    public var timeout: Duration = .seconds(10)

    public init(
        shuffle: Bool = false, duplicateRate: Double = 0, dropRate: Double = 0, speed: Double = 1, seed: UInt64 = 0,
        timeout: Duration = .seconds(10)
    ) {
        self.shuffle = shuffle
        self.duplicateRate = duplicateRate
        self.dropRate = dropRate
        self.speed = speed
        self.seed = seed
        self.timeout = timeout
    }
}
