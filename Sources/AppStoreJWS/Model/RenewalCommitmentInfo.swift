/// Renewal info's `commitmentInfo` (App Store Server API 1.21): what renews when a subscription's commitment ends.
/// Read from the signed object as Apple sent it; a member of another type reads as `nil`.
public struct RenewalCommitmentInfo: Sendable, Hashable {
    /// The object as signed.
    public let fields: [String: JSONValue]

    public init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    /// `commitmentAutoRenewProductId`: the product the commitment renews to.
    public var commitmentAutoRenewProductID: String? { self.fields.string("commitmentAutoRenewProductId") }
    /// `commitmentAutoRenewStatus`: whether the commitment renews.
    public var commitmentAutoRenewStatus: AutoRenewStatus? { self.fields.enumeration("commitmentAutoRenewStatus") }
    /// `commitmentRenewalBillingPlanType`: how the next commitment is billed.
    public var commitmentRenewalBillingPlanType: BillingPlanType? {
        self.fields.enumeration("commitmentRenewalBillingPlanType")
    }
    /// `commitmentRenewalDate`: when the commitment renews.
    public var commitmentRenewalDate: AppStoreTimestamp? { self.fields.timestamp("commitmentRenewalDate") }
    /// `commitmentRenewalPrice`: the next commitment's price, in milliunits of the renewal currency.
    public var commitmentRenewalPrice: Int64? { self.fields.integer("commitmentRenewalPrice") }
}
