public import struct Foundation.Date

/// One in-app purchase record of a receipt (payload attribute 17, itself a SET of attributes).
///
/// Absent attributes are `nil`; an empty date string in the receipt also reads as `nil`.
public struct InAppPurchase: Sendable, Hashable {
    /// Attribute 1701: the number of items purchased.
    public var quantity: Int64?
    /// Attribute 1702: the product identifier.
    public var productIdentifier: String?
    /// Attribute 1703: the transaction identifier.
    public var transactionIdentifier: String?
    /// Attribute 1704: the purchase date.
    public var purchaseDate: Date?
    /// Attribute 1705: the transaction identifier of the original purchase.
    public var originalTransactionIdentifier: String?
    /// Attribute 1706: the date of the original purchase.
    public var originalPurchaseDate: Date?
    /// Attribute 1707: the product type (an integer Apple does not document).
    public var productType: Int64?
    /// Attribute 1708: the expiration date of an auto-renewable subscription.
    public var expiresDate: Date?
    /// Attribute 1711: the primary key of a subscription purchase event across devices.
    public var webOrderLineItemIdentifier: Int64?
    /// Attribute 1712: when Apple customer support cancelled the transaction.
    public var cancellationDate: Date?
    /// Attribute 1713: whether the subscription is in its free trial period.
    public var isTrialPeriod: Bool?
    /// Attribute 1719: whether the subscription is in an introductory price period.
    public var isInIntroOfferPeriod: Bool?
    /// Attribute 1721: the identifier of the promotional offer redeemed.
    public var promotionalOfferIdentifier: String?
    /// Every attribute of the record that is not interpreted above, in receipt order.
    public var otherAttributes: [ReceiptAttribute]

    /// Creates a purchase record; every field defaults to absent.
    public init(
        quantity: Int64? = nil,
        productIdentifier: String? = nil,
        transactionIdentifier: String? = nil,
        purchaseDate: Date? = nil,
        originalTransactionIdentifier: String? = nil,
        originalPurchaseDate: Date? = nil,
        productType: Int64? = nil,
        expiresDate: Date? = nil,
        webOrderLineItemIdentifier: Int64? = nil,
        cancellationDate: Date? = nil,
        isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil,
        promotionalOfferIdentifier: String? = nil,
        otherAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productIdentifier = productIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.purchaseDate = purchaseDate
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemIdentifier = webOrderLineItemIdentifier
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferIdentifier = promotionalOfferIdentifier
        self.otherAttributes = otherAttributes
    }
}
