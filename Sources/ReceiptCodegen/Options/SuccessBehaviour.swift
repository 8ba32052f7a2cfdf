/// What the generated glue does when every check passes.
public enum SuccessBehaviour: String, Sendable, CaseIterable {
    /// macOS: start the app (`NSApplicationMain`), so that `main.swift` holds only the check; iOS: return.
    case run = "run"
    /// Call the app's `receiptValidationSucceeded()` (the app declares it).
    case call = "call"
    /// Return, and let the caller go on.
    case none = "none"
}
