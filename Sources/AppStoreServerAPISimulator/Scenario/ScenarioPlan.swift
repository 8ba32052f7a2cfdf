public import struct Foundation.Date

/// The order in which a ``ScenarioPlayer`` does things: each step of the timeline applied to the store at its
/// moment, and each send (first, duplicate or dropped) at the moment it is made. Pure: a timeline and a playback
/// give the same plan.
///
/// Shuffling delays each notification by a random number of the timeline's moments (up to a quarter of them), so
/// that later notifications overtake it — out of order, as Apple's retries arrive, but never before the event it
/// tells of. A duplicate is sent again at a random moment at or after its first send; a dropped notification is
/// never POSTed, and the history lists it with a failed attempt at its moment.
public struct ScenarioPlan: Sendable, Hashable {
    /// One thing to do at a moment of the timeline.
    public enum Action: Sendable, Hashable {
        /// Apply `timeline.steps[index]` to the store.
        case apply(step: Int)
        /// Send `timeline.notifications[index]` (or, `dropped`, record that its send failed).
        case send(notification: Int, fate: ScenarioSend.Fate)
    }

    /// Timeline moments and what to do then, in order (steps before the sends of the same moment).
    public let actions: [(date: Date, action: Action)]

    public init(_ timeline: ScenarioTimeline, _ playback: ScenarioPlayback) {
        // A generator of its own, away from the timeline's UUIDs, so that the same seed drops the same
        // notifications whatever else changes.
        var random = SeededGenerator(seed: playback.seed ^ 0x5CE7_A410_0000_0001)
        let notifications = timeline.notifications
        let slots = notifications.map(\.signedDate)
        let count = slots.count
        let window = UInt64(max(2, count / 4))
        // (slot, tie-break, action)
        var sends: [(slot: Int, order: UInt64, action: Action)] = []
        for index in 0..<count {
            let dropped = random.chance(playback.dropRate)
            var slot = index
            if playback.shuffle, count > 1 {
                slot = min(count - 1, index + Int(random.next() % window))
            }
            let order = playback.shuffle ? random.next() : UInt64(index)
            sends.append((slot, order, .send(notification: index, fate: dropped ? .dropped : .sent)))
            if !dropped, random.chance(playback.duplicateRate) {
                let later = slot + Int(random.next() % UInt64(count - slot))
                sends.append((later, random.next(), .send(notification: index, fate: .duplicate)))
            }
        }
        sends.sort { ($0.slot, $0.order) < ($1.slot, $1.order) }
        var actions: [(date: Date, action: Action)] = []
        var next = 0
        for (index, step) in timeline.steps.enumerated() {
            while next < sends.count, slots[sends[next].slot] < step.date {
                actions.append((slots[sends[next].slot], sends[next].action))
                next += 1
            }
            actions.append((step.date, .apply(step: index)))
        }
        for send in sends[next...] { actions.append((slots[send.slot], send.action)) }
        self.actions = actions
    }

    /// How many POSTs the plan makes (dropped notifications are not POSTed).
    public var posts: Int {
        self.actions.count { if case .send(_, let fate) = $0.action { fate != .dropped } else { false } }
    }

    /// How many sends, dropped ones included.
    public var sends: Int {
        self.actions.count { if case .send = $0.action { true } else { false } }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.actions.map(\.date) == rhs.actions.map(\.date) && lhs.actions.map(\.action) == rhs.actions.map(\.action)
    }

    public func hash(into hasher: inout Hasher) {
        for (date, action) in self.actions {
            hasher.combine(date)
            hasher.combine(action)
        }
    }
}
