/// What the generated glue does when a check fails.
public enum FailureBehaviour: String, Sendable, CaseIterable {
    /// macOS: `exit(173)`, after which the App Store fetches a fresh receipt and relaunches the app. iOS (never
    /// relaunched that way): ask StoreKit for a fresh receipt (`SKReceiptRefreshRequest`).
    case exit173 = "exit173"
    /// iOS: ask StoreKit for a fresh receipt; macOS, where the refresh is the App Store's work: `exit(173)`.
    case refreshThenExit173 = "refresh-then-exit173"
    /// Call the app's `receiptValidationFailed()` (the app declares it).
    case call = "call"
    /// Nothing: the checks run, the app goes on (for trying a generation out, never for a release).
    case none = "none"
}
