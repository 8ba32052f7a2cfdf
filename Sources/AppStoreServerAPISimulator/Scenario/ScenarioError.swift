public import _ReceiptKitShared

/// A scenario that cannot be played: JSON that is not a scenario, a member of the wrong kind or out of range, a name
/// that names nothing, or an event the timeline cannot take at that point (a renewal of a subscription nobody
/// bought). ``reason`` names the place (`events[3].product`) and what was expected.
///
/// Equality compares ``code`` only.
public struct ScenarioError: CodedError {
    public let code: Code, reason: String

    init(_ code: Code, _ reason: String) { (self.code, self.reason) = (code, reason) }

    /// The kind of a ``ScenarioError``.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// Not JSON, or JSON nested too deep, or larger than a scenario may be.
        public static let malformed = Code("scenario_malformed")
        /// A member missing, of the wrong kind, out of range or not known.
        public static let invalidMember = Code("scenario_invalid_member")
        /// A customer, product or app named that the scenario does not define, or defined twice.
        public static let unknownName = Code("scenario_unknown_name")
        /// An event the customer's state at that moment does not allow (a renewal with no subscription, a refund
        /// with nothing to refund).
        public static let impossibleEvent = Code("scenario_impossible_event")
    }
}
