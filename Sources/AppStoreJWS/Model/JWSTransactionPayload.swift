public import struct Foundation.Date

/// A signed transaction (`JWSTransactionDecodedPayload`): StoreKit 2's `Transaction.jwsRepresentation`, the App Store
/// Server API's `signedTransactionInfo`, and the transaction inside a server notification.
public struct JWSTransactionPayload: AppStoreSignedPayload {
    public let fields: [String: JSONValue]
    public static let kind = "transaction"
    public static let namesBundleIdentifier = true
    public static let namesAppAppleID = false

    static let schema: [String: PayloadField] = [
        "advancedCommerceInfo": .object, "appAccountToken": .string, "appTransactionId": .string,
        "billingPlanType": .string, "bundleId": .string, "commitmentInfo": .object,
        "currency": .string, "environment": .string, "expiresDate": .timestamp, "inAppOwnershipType": .string,
        "isUpgraded": .bool, "offerDiscountType": .string, "offerIdentifier": .string, "offerPeriod": .string,
        "offerType": .integer, "originalPurchaseDate": .timestamp, "originalTransactionId": .string, "price": .integer,
        "productId": .string, "purchaseDate": .timestamp, "quantity": .integer, "revocationDate": .timestamp,
        "revocationPercentage": .integer, "revocationReason": .integer, "revocationType": .string,
        "signedDate": .timestamp, "storefront": .string, "storefrontId": .string,
        "subscriptionGroupIdentifier": .string, "transactionId": .string, "transactionReason": .string,
        "type": .string, "webOrderLineItemId": .string,
    ]

    public init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: Self.kind)
        self.fields = fields
    }

    /// `transactionId`.
    public var transactionID: String? { self.fields.string("transactionId") }
    /// `originalTransactionId`.
    public var originalTransactionID: String? { self.fields.string("originalTransactionId") }
    /// `webOrderLineItemId`.
    public var webOrderLineItemID: String? { self.fields.string("webOrderLineItemId") }
    /// `bundleId`.
    public var bundleIdentifier: String? { self.fields.string("bundleId") }
    /// `productId`.
    public var productID: String? { self.fields.string("productId") }
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String? { self.fields.string("subscriptionGroupIdentifier") }
    /// `purchaseDate`.
    public var purchaseDate: AppStoreTimestamp? { self.fields.timestamp("purchaseDate") }
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: AppStoreTimestamp? { self.fields.timestamp("originalPurchaseDate") }
    /// `expiresDate`: when an auto-renewable subscription expires or renews.
    public var expiresDate: AppStoreTimestamp? { self.fields.timestamp("expiresDate") }
    /// `quantity`.
    public var quantity: Int64? { self.fields.integer("quantity") }
    /// `type`: `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: TransactionType? { self.fields.enumeration("type") }
    /// `appAccountToken`: the UUID the app set at purchase.
    public var appAccountToken: String? { self.fields.string("appAccountToken") }
    /// `appTransactionId`.
    public var appTransactionID: String? { self.fields.string("appTransactionId") }
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: InAppOwnershipType? { self.fields.enumeration("inAppOwnershipType") }
    /// `signedDate`.
    public var signedDate: AppStoreTimestamp? { self.fields.timestamp("signedDate") }
    /// `revocationReason`: 0 (other) or 1 (an app issue).
    public var revocationReason: RevocationReason? { self.fields.enumeration("revocationReason") }
    /// `revocationDate`: when Apple refunded or revoked the transaction.
    public var revocationDate: AppStoreTimestamp? { self.fields.timestamp("revocationDate") }
    /// `revocationType`: `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`.
    public var revocationType: String? { self.fields.string("revocationType") }
    /// `revocationPercentage`: the refunded share in thousandths of a percent.
    public var revocationPercentage: Int64? { self.fields.integer("revocationPercentage") }
    /// `isUpgraded`.
    public var isUpgraded: Bool? { self.fields.bool("isUpgraded") }
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: OfferType? { self.fields.enumeration("offerType") }
    /// `offerIdentifier`.
    public var offerIdentifier: String? { self.fields.string("offerIdentifier") }
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
    public var offerDiscountType: OfferDiscountType? { self.fields.enumeration("offerDiscountType") }
    /// `offerPeriod`: an ISO 8601 duration.
    public var offerPeriod: String? { self.fields.string("offerPeriod") }
    /// `environment`.
    public var environment: AppStoreEnvironment? { self.fields.environment("environment") }
    /// `storefront`: the three-letter country code.
    public var storefront: String? { self.fields.string("storefront") }
    /// `storefrontId`.
    public var storefrontID: String? { self.fields.string("storefrontId") }
    /// `transactionReason`: `PURCHASE` or `RENEWAL`.
    public var transactionReason: TransactionReason? { self.fields.enumeration("transactionReason") }
    /// `currency`: ISO 4217.
    public var currency: String? { self.fields.string("currency") }
    /// `price`: in milliunits of `currency`.
    public var price: Int64? { self.fields.integer("price") }
    /// `advancedCommerceInfo`, kept as signed.
    public var advancedCommerceInfo: [String: JSONValue]? { self.fields["advancedCommerceInfo"]?.objectValue }
    /// `billingPlanType`: how a subscription with a commitment is billed (API 1.21).
    public var billingPlanType: BillingPlanType? { self.fields.enumeration("billingPlanType") }
    /// `commitmentInfo`: where this billing period stands in the commitment (API 1.21).
    public var commitmentInfo: TransactionCommitmentInfo? {
        self.fields["commitmentInfo"]?.objectValue.map(TransactionCommitmentInfo.init(fields:))
    }

    public var signingTime: Date? { self.signedDate?.date }
    /// Transactions do not name the app's Apple ID.
    public var appAppleID: Int64? { nil }
}
