/// Where a customer's product stands at the end of a scenario's timeline, as the timeline itself reckons it: the
/// state in the service's entitlement vocabulary, and the identifiers a backend would be asked by.
public struct ScenarioOutcome: Sendable, Hashable {
    public var customer: String
    public var productID: String
    public var originalTransactionID: String
    public var transactionID: String
    public var state: String
}
