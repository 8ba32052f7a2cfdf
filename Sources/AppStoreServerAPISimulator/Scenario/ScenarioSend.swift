public import struct Foundation.Date

/// One send of a played scenario, as the player reports it while it plays.
public struct ScenarioSend: Sendable, Hashable {
    /// What became of it.
    public enum Fate: String, Sendable, Hashable {
        /// POSTed (``result`` says how it went).
        case sent
        /// POSTed a second time.
        case duplicate
        /// Never delivered: the history lists it with a failed attempt.
        case dropped
    }

    public var notification: ScenarioNotification
    public var fate: Fate
    /// Apple's `sendAttemptResult`: `SUCCESS`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, `TIMED_OUT`, `NO_RESPONSE`.
    public var result: String
    /// The HTTP status the backend answered, if it answered.
    public var status: Int?
    /// The simulator's clock when it was sent.
    public var attemptDate: Date
    /// Its place among the sends, from 1, and how many there are.
    public var position: Int, total: Int
}
