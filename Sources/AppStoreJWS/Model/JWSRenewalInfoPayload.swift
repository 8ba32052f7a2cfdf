public import struct Foundation.Date

/// Signed subscription renewal info (`JWSRenewalInfoDecodedPayload`): StoreKit 2's `RenewalInfo`, the App Store
/// Server API's `signedRenewalInfo`, and the renewal info inside a server notification. It names no bundle id:
/// a bundle-id expectation is checked on the notification or transaction that carries it.
public struct JWSRenewalInfoPayload: AppStoreSignedPayload {
    public let fields: [String: JSONValue]
    public static let kind = "renewal_info"
    public static let namesBundleIdentifier = false
    public static let namesAppAppleID = false

    static let schema: [String: PayloadField] = [
        "advancedCommerceInfo": .object, "appAccountToken": .string, "appTransactionId": .string,
        "autoRenewProductId": .string, "autoRenewStatus": .integer, "commitmentInfo": .object, "currency": .string,
        "eligibleWinBackOfferIds": .stringArray, "environment": .string, "expirationIntent": .integer,
        "gracePeriodExpiresDate": .timestamp, "isInBillingRetryPeriod": .bool, "offerDiscountType": .string,
        "offerIdentifier": .string, "offerPeriod": .string, "offerType": .integer, "originalTransactionId": .string,
        "priceIncreaseStatus": .integer, "productId": .string, "recentSubscriptionStartDate": .timestamp,
        "renewalBillingPlanType": .string, "renewalDate": .timestamp, "renewalPrice": .integer,
        "signedDate": .timestamp,
    ]

    public init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: Self.kind)
        self.fields = fields
    }

    /// `originalTransactionId`.
    public var originalTransactionID: String? { self.fields.string("originalTransactionId") }
    /// `productId`: the product the subscription is on now.
    public var productID: String? { self.fields.string("productId") }
    /// `autoRenewProductId`: the product it renews to.
    public var autoRenewProductID: String? { self.fields.string("autoRenewProductId") }
    /// `autoRenewStatus`: 1 on, 0 off.
    public var autoRenewStatus: AutoRenewStatus? { self.fields.enumeration("autoRenewStatus") }
    /// `expirationIntent`: 1 cancelled, 2 billing error, 3 price increase not consented, 4 unavailable, 5 other.
    public var expirationIntent: ExpirationIntent? { self.fields.enumeration("expirationIntent") }
    /// `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: AppStoreTimestamp? { self.fields.timestamp("gracePeriodExpiresDate") }
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool? { self.fields.bool("isInBillingRetryPeriod") }
    /// `priceIncreaseStatus`: 0 not yet responded, 1 consented.
    public var priceIncreaseStatus: PriceIncreaseStatus? { self.fields.enumeration("priceIncreaseStatus") }
    /// `offerType`.
    public var offerType: OfferType? { self.fields.enumeration("offerType") }
    /// `offerIdentifier`.
    public var offerIdentifier: String? { self.fields.string("offerIdentifier") }
    /// `offerDiscountType`.
    public var offerDiscountType: OfferDiscountType? { self.fields.enumeration("offerDiscountType") }
    /// `offerPeriod`.
    public var offerPeriod: String? { self.fields.string("offerPeriod") }
    /// `recentSubscriptionStartDate`.
    public var recentSubscriptionStartDate: AppStoreTimestamp? { self.fields.timestamp("recentSubscriptionStartDate") }
    /// `renewalDate`.
    public var renewalDate: AppStoreTimestamp? { self.fields.timestamp("renewalDate") }
    /// `renewalPrice`: in milliunits of `currency`.
    public var renewalPrice: Int64? { self.fields.integer("renewalPrice") }
    /// `currency`.
    public var currency: String? { self.fields.string("currency") }
    /// `eligibleWinBackOfferIds`.
    public var eligibleWinBackOfferIDs: [String]? { self.fields.strings("eligibleWinBackOfferIds") }
    /// `appAccountToken`.
    public var appAccountToken: String? { self.fields.string("appAccountToken") }
    /// `appTransactionId`.
    public var appTransactionID: String? { self.fields.string("appTransactionId") }
    /// `signedDate`.
    public var signedDate: AppStoreTimestamp? { self.fields.timestamp("signedDate") }
    /// `environment`.
    public var environment: AppStoreEnvironment? { self.fields.environment("environment") }
    /// `renewalBillingPlanType`: how the next period is billed (API 1.21).
    public var renewalBillingPlanType: BillingPlanType? { self.fields.enumeration("renewalBillingPlanType") }
    /// `commitmentInfo`: what renews when the commitment ends (API 1.21).
    public var commitmentInfo: RenewalCommitmentInfo? {
        self.fields["commitmentInfo"]?.objectValue.map(RenewalCommitmentInfo.init(fields:))
    }

    public var signingTime: Date? { self.signedDate?.date }
    public var bundleIdentifier: String? { nil }
    public var appAppleID: Int64? { nil }
}
