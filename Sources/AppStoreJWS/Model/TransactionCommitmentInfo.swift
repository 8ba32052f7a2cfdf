/// A transaction's `commitmentInfo` (App Store Server API 1.21): where a billing period stands in a subscription's
/// commitment. Read from the signed object as Apple sent it; a member of another type reads as `nil`.
public struct TransactionCommitmentInfo: Sendable, Hashable {
    /// The object as signed.
    public let fields: [String: JSONValue]

    public init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    /// `billingPeriodNumber`: which billing period of the commitment this transaction pays.
    public var billingPeriodNumber: Int64? { self.fields.integer("billingPeriodNumber") }
    /// `totalBillingPeriods`: how many billing periods the commitment has.
    public var totalBillingPeriods: Int64? { self.fields.integer("totalBillingPeriods") }
    /// `commitmentExpiresDate`: when the commitment ends.
    public var commitmentExpiresDate: AppStoreTimestamp? { self.fields.timestamp("commitmentExpiresDate") }
    /// `commitmentPrice`: the commitment's price, in milliunits of the transaction's currency.
    public var commitmentPrice: Int64? { self.fields.integer("commitmentPrice") }
}
