public import struct Foundation.Date

/// A scenario lived: each event, at its moment, turned into the transactions, renewal info and notifications the
/// App Store makes for it, Apple's documented types and subtypes; and where every customer's products stand at the
/// end. Pure: the same scenario, start and seed give the same steps, identifiers and UUIDs.
///
/// Events are taken in time order (those at the same moment in the order written). An event the customer's state
/// does not allow at its moment — a renewal with no subscription, a second purchase of an active one, a refund of
/// what was refunded — is refused with ``ScenarioError/Code/impossibleEvent`` naming the event.
public struct ScenarioTimeline: Sendable {
    public let scenario: SimulationScenario
    /// The moment `P0D` stands for.
    public let start: Date
    /// The last event's moment (the start when there is none).
    public let end: Date
    public let steps: [ScenarioStep]
    /// Every customer's products at ``end``, by customer then product.
    public let outcomes: [ScenarioOutcome]

    /// Lives `scenario` from `start` (the scenario's own start, if it names one, is the caller's to pass).
    /// - Parameters:
    ///   - scenario: The scenario, as read and checked by ``SimulationScenario/init(json:)``.
    ///   - start: The moment the scenario's first event is measured from.
    ///   - seed: Chooses the notification UUIDs and the range of transaction identifiers.
    public init(_ scenario: SimulationScenario, start: Date, seed: UInt64) throws(ScenarioError) {
        var builder = ScenarioTimelineBuilder(scenario: scenario, start: start, seed: seed)
        var dated: [(date: Date, index: Int)] = []
        for (index, event) in scenario.events.enumerated() {
            guard let date = event.at.after(start) else {
                throw ScenarioError(.invalidMember, "events[\(index)].at: \(event.at) from the start is not a date")
            }
            dated.append((date, index))
        }
        dated.sort { ($0.date, $0.index) < ($1.date, $1.index) }
        var steps: [ScenarioStep] = []
        for (date, index) in dated {
            steps.append(try builder.step(scenario.events[index], index: index, at: date))
        }
        self.scenario = scenario
        self.start = start
        self.end = dated.last?.date ?? start
        self.steps = steps
        self.outcomes = builder.outcomes(at: self.end)
    }

    /// How long the timeline lasts, first event to last, in seconds.
    public var duration: Double { self.end.timeIntervalSince(self.steps.first?.date ?? self.start) }

    /// Every notification, in time order.
    public var notifications: [ScenarioNotification] { self.steps.flatMap(\.notifications) }

    /// Where `customer`'s `productID` stands at the end (its group's, for a subscription).
    public func outcome(customer: String, productID: String) -> ScenarioOutcome? {
        let group = self.scenario.product(productID)?.subscriptionGroup
        return self.outcomes.first { outcome in
            guard outcome.customer == customer else { return false }
            if let group { return self.scenario.product(outcome.productID)?.subscriptionGroup == group }
            return outcome.productID == productID
        }
    }

    /// The expectations the timeline itself does not meet, each as a sentence; empty when all hold.
    public func unmetExpectations() -> [String] {
        self.scenario.expectations.compactMap { expectation in
            guard let outcome = self.outcome(customer: expectation.customer, productID: expectation.productID) else {
                return "\(expectation.customer) never had \(expectation.productID)"
            }
            if outcome.productID != expectation.productID {
                return "\(expectation.customer)'s subscription is \(outcome.productID) at the end, not \(expectation.productID)"
            }
            if outcome.state != expectation.state {
                return "\(expectation.customer)'s \(expectation.productID) is \(outcome.state) at the end, not \(expectation.state)"
            }
            return nil
        }
    }
}
