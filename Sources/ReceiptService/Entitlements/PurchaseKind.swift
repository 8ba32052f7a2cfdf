import AppStoreJWS

/// What kind of product a purchase is, as far as the ledger can tell: signed data says (`type`); a receipt does not,
/// so a purchase a receipt alone taught is a subscription when it has an expiry date and ``lasting`` otherwise.
enum PurchaseKind: String, Sendable {
    case autoRenewable = "auto_renewable"
    case nonRenewing = "non_renewing"
    case nonConsumable = "non_consumable"
    case consumable
    /// No expiry date and no signed `type`: a receipt's non-consumable, non-renewing subscription or consumable not
    /// finished yet (a finished consumable leaves the receipt). Entitled as a non-consumable is.
    case lasting = "unknown"

    /// The kind `type` names; `nil` for a type this version does not know.
    init?(_ type: TransactionType?) {
        switch type {
        case .autoRenewableSubscription?: self = .autoRenewable
        case .nonRenewingSubscription?: self = .nonRenewing
        case .nonConsumable?: self = .nonConsumable
        case .consumable?: self = .consumable
        default: return nil
        }
    }
}
