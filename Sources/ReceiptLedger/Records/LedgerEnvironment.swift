/// The App Store environment a receipt and its transactions belong to, as verifyReceipt names it. Transaction ids
/// are unique within one environment only, so the ledger keys every row by environment (and app) too.
public enum LedgerEnvironment: String, Sendable, Hashable, CaseIterable {
    /// Receipts from the App Store (`Production`, `ProductionVPP`).
    case production = "Production"
    /// Receipts from the sandbox (`ProductionSandbox`, `ProductionVPPSandbox`).
    case sandbox = "Sandbox"
    /// Receipts from Xcode's StoreKit testing (only when a service allows them).
    case xcode = "Xcode"
}
