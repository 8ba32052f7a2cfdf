/// What the scenario's author says a customer's product is at the end of the timeline, in the vocabulary of the
/// service's entitlements (`active`, `grace_period`, `billing_retry`, `expired`, `revoked`, `refunded`): what an
/// end-to-end test asks its backend for, and what the timeline itself must agree with.
public struct ScenarioExpectation: Sendable, Hashable {
    public var customer: String
    public var productID: String
    public var state: String

    public init(customer: String, productID: String, state: String) {
        self.customer = customer
        self.productID = productID
        self.state = state
    }

    /// The states an expectation may name.
    public static let states: Set<String> = ["active", "grace_period", "billing_retry", "expired", "revoked", "refunded"]
}
