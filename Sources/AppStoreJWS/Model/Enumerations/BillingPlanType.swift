/// How a subscription with a commitment is billed (`billingPlanType` of a transaction, `renewalBillingPlanType` and
/// `commitmentRenewalBillingPlanType` of renewal info; App Store Server API 1.21).
public struct BillingPlanType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole commitment billed at its start (`BILLED_UPFRONT`).
    public static let billedUpfront = BillingPlanType(rawValue: "BILLED_UPFRONT")

    /// Billed every month of the commitment (`MONTHLY`).
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")
}
