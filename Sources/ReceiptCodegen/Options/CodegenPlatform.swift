/// The platform whose glue a generated file carries (device identifier, receipt location, what failure does).
public enum CodegenPlatform: String, Sendable, CaseIterable {
    /// macOS: the primary network interface's MAC address (IOKit), `Contents/_MASReceipt/receipt`, exit status 173.
    case macOS = "macos"
    /// iOS: `identifierForVendor`, `appStoreReceiptURL`, a receipt refresh on failure.
    case iOS = "ios"
}
