/// What a played scenario did: every send in the order made, and the counts.
public struct ScenarioPlayReport: Sendable, Hashable {
    public var sends: [ScenarioSend]

    /// Notifications of the timeline.
    public var notifications: Int { Set(self.sends.map(\.notification.notificationUUID)).count }
    /// POSTs the backend answered with a 2xx.
    public var delivered: Int { self.sends.filter { $0.fate != .dropped && $0.result == "SUCCESS" }.count }
    /// POSTs that failed (no answer, a timeout or a status other than 2xx).
    public var failed: Int { self.sends.filter { $0.fate != .dropped && $0.result != "SUCCESS" }.count }
    public var dropped: Int { self.sends.filter { $0.fate == .dropped }.count }
    public var duplicates: Int { self.sends.filter { $0.fate == .duplicate }.count }
}
