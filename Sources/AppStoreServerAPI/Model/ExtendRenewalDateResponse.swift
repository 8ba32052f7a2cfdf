public import AppStoreJWS

/// The answer of Extend a Subscription Renewal Date (`ExtendRenewalDateResponse`).
public struct ExtendRenewalDateResponse: Sendable, Hashable, Codable {
    /// `originalTransactionId`.
    public var originalTransactionID: String?
    /// `webOrderLineItemId`.
    public var webOrderLineItemID: String?
    /// Whether the extension succeeded (`success`).
    public var success: Bool?
    /// The new renewal date (`effectiveDate`).
    public var effectiveDate: AppStoreTimestamp?

    public init(
        originalTransactionID: String? = nil,
        webOrderLineItemID: String? = nil,
        success: Bool? = nil,
        effectiveDate: AppStoreTimestamp? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.webOrderLineItemID = webOrderLineItemID
        self.success = success
        self.effectiveDate = effectiveDate
    }

    enum CodingKeys: String, CodingKey {
        case originalTransactionID = "originalTransactionId"
        case webOrderLineItemID = "webOrderLineItemId"
        case success
        case effectiveDate
    }
}
