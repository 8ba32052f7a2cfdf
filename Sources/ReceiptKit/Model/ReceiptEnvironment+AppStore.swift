public import AppStorePKI

extension ReceiptEnvironment {
    /// The App Store environment this receipt environment belongs to, as verifyReceipt's `environment` and signed
    /// data name it: `Production` and `ProductionVPP` are `.production`, `ProductionSandbox` and
    /// `ProductionVPPSandbox` `.sandbox`, `Xcode` `.xcode`. A value this
    /// version does not know is the sandbox when it ends in `Sandbox`, as Apple's sandbox spellings do, and
    /// production otherwise.
    public var appStoreEnvironment: AppStoreEnvironment {
        switch self {
        case .production, .productionVPP: return .production
        case .productionSandbox, .productionVPPSandbox: return .sandbox
        case .xcode: return .xcode
        default: return self.rawValue.hasSuffix("Sandbox") ? .sandbox : .production
        }
    }
}
