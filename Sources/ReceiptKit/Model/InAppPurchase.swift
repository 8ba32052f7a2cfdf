public import struct Foundation.Date

/// One in-app purchase record of a receipt (payload attribute 17, itself a SET of attributes).
///
/// Absent attributes are `nil`; an empty date string in the receipt also reads as `nil`. A decoded record keeps
/// its raw bytes and creates its strings and ``otherAttributes`` when they are read; setting a property stores the
/// new value. Equality and hashing compare the values the properties return.
public struct InAppPurchase: Sendable {
    /// Attribute 1701: the number of items purchased.
    public var quantity: Int64?
    /// Attribute 1704: the purchase date.
    public var purchaseDate: Date?
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

    var storedProductIdentifier: DeferredText = .absent
    var storedTransactionIdentifier: DeferredText = .absent
    var storedOriginalTransactionIdentifier: DeferredText = .absent
    var storedPromotionalOfferIdentifier: DeferredText = .absent
    var storedOtherAttributes: [ReceiptAttribute]?
    /// The content of the record's SET as decoded (empty for a record built in code).
    var raw: ArraySlice<UInt8> = []

    /// Attribute 1702: the product identifier.
    public var productIdentifier: String? {
        get { self.storedProductIdentifier.resolve(in: self.raw) }
        set { self.storedProductIdentifier = DeferredText(newValue) }
    }

    /// Attribute 1703: the transaction identifier.
    public var transactionIdentifier: String? {
        get { self.storedTransactionIdentifier.resolve(in: self.raw) }
        set { self.storedTransactionIdentifier = DeferredText(newValue) }
    }

    /// Attribute 1705: the transaction identifier of the original purchase.
    public var originalTransactionIdentifier: String? {
        get { self.storedOriginalTransactionIdentifier.resolve(in: self.raw) }
        set { self.storedOriginalTransactionIdentifier = DeferredText(newValue) }
    }

    /// Attribute 1721: the identifier of the promotional offer redeemed.
    public var promotionalOfferIdentifier: String? {
        get { self.storedPromotionalOfferIdentifier.resolve(in: self.raw) }
        set { self.storedPromotionalOfferIdentifier = DeferredText(newValue) }
    }

    /// Every attribute of the record that is not interpreted above, in receipt order.
    public var otherAttributes: [ReceiptAttribute] {
        get { self.storedOtherAttributes ?? ReceiptPayloadDecoder.undocumentedPurchaseAttributes(in: self.raw) }
        set { self.storedOtherAttributes = newValue }
    }

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
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemIdentifier = webOrderLineItemIdentifier
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.storedProductIdentifier = DeferredText(productIdentifier)
        self.storedTransactionIdentifier = DeferredText(transactionIdentifier)
        self.storedOriginalTransactionIdentifier = DeferredText(originalTransactionIdentifier)
        self.storedPromotionalOfferIdentifier = DeferredText(promotionalOfferIdentifier)
        self.storedOtherAttributes = otherAttributes
    }

    /// A record as decoded: scalar fields set by the decoder, strings and unknown attributes left in `raw`.
    init(raw: ArraySlice<UInt8>) {
        self.raw = raw
    }
}

extension InAppPurchase: Hashable {
    public static func == (lhs: InAppPurchase, rhs: InAppPurchase) -> Bool {
        lhs.quantity == rhs.quantity && lhs.purchaseDate == rhs.purchaseDate
            && lhs.originalPurchaseDate == rhs.originalPurchaseDate && lhs.productType == rhs.productType
            && lhs.expiresDate == rhs.expiresDate && lhs.webOrderLineItemIdentifier == rhs.webOrderLineItemIdentifier
            && lhs.cancellationDate == rhs.cancellationDate && lhs.isTrialPeriod == rhs.isTrialPeriod
            && lhs.isInIntroOfferPeriod == rhs.isInIntroOfferPeriod
            && lhs.productIdentifier == rhs.productIdentifier
            && lhs.transactionIdentifier == rhs.transactionIdentifier
            && lhs.originalTransactionIdentifier == rhs.originalTransactionIdentifier
            && lhs.promotionalOfferIdentifier == rhs.promotionalOfferIdentifier
            && lhs.otherAttributes == rhs.otherAttributes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.quantity)
        hasher.combine(self.purchaseDate)
        hasher.combine(self.expiresDate)
        hasher.combine(self.productIdentifier)
        hasher.combine(self.transactionIdentifier)
        hasher.combine(self.originalTransactionIdentifier)
        hasher.combine(self.webOrderLineItemIdentifier)
    }
}
