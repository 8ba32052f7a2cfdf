import struct Foundation.Date

/// A customer's auto-renewable subscription in one group, or a Family Sharing member's share of one, as a
/// scenario's timeline has it so far.
struct ScenarioSubscription: Sendable {
    var originalTransactionID: String
    var originalPurchaseDate: Date
    var productID: String
    var renewsTo: String
    var autoRenew = true
    var expires: Date
    var latestTransactionID: String
    var recentStart: Date
    var inBillingRetry = false
    var graceUntil: Date?
    var expirationIntent: Int64?
    var expired = false
    var pendingOffer: (type: Int64, identifier: String?)?
    /// For a member's share: the purchaser's customer id.
    var sharedBy: String?
    /// For a purchaser: the members it is shared with.
    var members: [String] = []
}
