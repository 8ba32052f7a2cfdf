/// What the generated glue does when a check fails.
public enum FailureBehaviour: String, Sendable, CaseIterable {
    /// `exit(173)`: on macOS the App Store then fetches a fresh receipt and relaunches the app.
    case exit173 = "exit173"
    /// Ask StoreKit for a fresh receipt first (`SKReceiptRefreshRequest`), exit 173 if the new one fails too.
    case refreshThenExit173 = "refresh-then-exit173"
    /// Call the app's `receiptValidationFailed()` (the app declares it).
    case call = "call"
    /// Nothing (the app reads the tokens itself).
    case none = "none"
}
