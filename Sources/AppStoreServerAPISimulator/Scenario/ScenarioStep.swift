public import AppStoreJWS
public import struct Foundation.Date

/// What one event of a scenario does, at its moment: the transactions it adds or changes (with the customer each
/// belongs to), the renewal info it sets, and the notifications the App Store sends for it.
public struct ScenarioStep: Sendable, Hashable {
    /// A transaction added or changed, and its customer.
    public struct Transaction: Sendable, Hashable {
        public var fields: [String: JSONValue]
        public var customer: String
    }

    public var date: Date
    /// The event's place in the scenario's `events`.
    public var eventIndex: Int
    public var transactions: [Transaction]
    public var renewalInfo: [[String: JSONValue]]
    public var notifications: [ScenarioNotification]
}
