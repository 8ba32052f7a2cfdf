/// What the generated glue does when every check passes.
public enum SuccessBehaviour: String, Sendable, CaseIterable {
    /// Return, and let the app run.
    case run = "run"
    /// Call the app's `receiptValidationSucceeded()` (the app declares it).
    case call = "call"
    /// Nothing.
    case none = "none"
}
