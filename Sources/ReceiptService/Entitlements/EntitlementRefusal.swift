/// An entitlements request answered with an error: the outcome (its HTTP status), a stable reason code and a
/// sentence for people.
struct EntitlementRefusal: Error, Sendable {
    let outcome: EntitlementOutcome
    let reason: ServiceReason
    let message: String

    init(_ outcome: EntitlementOutcome, _ reason: ServiceReason, _ message: String) {
        self.outcome = outcome
        self.reason = reason
        self.message = message
    }
}
