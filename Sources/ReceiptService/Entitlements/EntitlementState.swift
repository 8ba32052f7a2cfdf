/// Where a customer stands with one product or subscription at a moment (``EntitlementRules``).
enum EntitlementState: String, Sendable {
    /// Bought and not expired: entitled.
    case active
    /// Expired, the App Store still trying to bill, within the grace period: still entitled.
    case gracePeriod = "grace_period"
    /// Expired, the App Store still trying to bill, past any grace period: not entitled.
    case billingRetry = "billing_retry"
    /// Expired and not being billed: not entitled.
    case expired
    /// Revoked from Family Sharing: the purchaser no longer shares it (or was refunded).
    case revoked
    /// The App Store refunded the customer's own purchase.
    case refunded

    /// Whether the customer has the product's entitlements in this state.
    var grantsAccess: Bool { self == .active || self == .gracePeriod }

    /// Apple's subscription `status` for this state (App Store Server API, "status":
    /// https://developer.apple.com/documentation/appstoreserverapi/status): 1 active, 2 expired, 3 in the billing
    /// retry period, 4 in the billing grace period, 5 revoked — a refund is a revocation too (`revocationDate`).
    var appleStatus: Int64 {
        switch self {
        case .active: return 1
        case .expired: return 2
        case .billingRetry: return 3
        case .gracePeriod: return 4
        case .revoked, .refunded: return 5
        }
    }
}
