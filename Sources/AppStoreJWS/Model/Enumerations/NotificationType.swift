/// The event an App Store Server Notification V2 reports (`notificationType`).
public struct NotificationType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `SUBSCRIBED`.
    public static let subscribed = NotificationType(rawValue: "SUBSCRIBED")

    /// `DID_CHANGE_RENEWAL_PREF`.
    public static let didChangeRenewalPref = NotificationType(rawValue: "DID_CHANGE_RENEWAL_PREF")

    /// `DID_CHANGE_RENEWAL_STATUS`.
    public static let didChangeRenewalStatus = NotificationType(rawValue: "DID_CHANGE_RENEWAL_STATUS")

    /// `OFFER_REDEEMED`.
    public static let offerRedeemed = NotificationType(rawValue: "OFFER_REDEEMED")

    /// `DID_RENEW`.
    public static let didRenew = NotificationType(rawValue: "DID_RENEW")

    /// `EXPIRED`.
    public static let expired = NotificationType(rawValue: "EXPIRED")

    /// `DID_FAIL_TO_RENEW`.
    public static let didFailToRenew = NotificationType(rawValue: "DID_FAIL_TO_RENEW")

    /// `GRACE_PERIOD_EXPIRED`.
    public static let gracePeriodExpired = NotificationType(rawValue: "GRACE_PERIOD_EXPIRED")

    /// `PRICE_INCREASE`.
    public static let priceIncrease = NotificationType(rawValue: "PRICE_INCREASE")

    /// `REFUND`.
    public static let refund = NotificationType(rawValue: "REFUND")

    /// `REFUND_DECLINED`.
    public static let refundDeclined = NotificationType(rawValue: "REFUND_DECLINED")

    /// `REFUND_REVERSED`.
    public static let refundReversed = NotificationType(rawValue: "REFUND_REVERSED")

    /// `CONSUMPTION_REQUEST`.
    public static let consumptionRequest = NotificationType(rawValue: "CONSUMPTION_REQUEST")

    /// `RENEWAL_EXTENDED`.
    public static let renewalExtended = NotificationType(rawValue: "RENEWAL_EXTENDED")

    /// `RENEWAL_EXTENSION`.
    public static let renewalExtension = NotificationType(rawValue: "RENEWAL_EXTENSION")

    /// `REVOKE`.
    public static let revoke = NotificationType(rawValue: "REVOKE")

    /// `TEST`.
    public static let test = NotificationType(rawValue: "TEST")

    /// `EXTERNAL_PURCHASE_TOKEN`.
    public static let externalPurchaseToken = NotificationType(rawValue: "EXTERNAL_PURCHASE_TOKEN")

    /// `ONE_TIME_CHARGE`.
    public static let oneTimeCharge = NotificationType(rawValue: "ONE_TIME_CHARGE")

    /// `RESCIND_CONSENT`.
    public static let rescindConsent = NotificationType(rawValue: "RESCIND_CONSENT")

    /// `METADATA_UPDATE`.
    public static let metadataUpdate = NotificationType(rawValue: "METADATA_UPDATE")

    /// `MIGRATION`.
    public static let migration = NotificationType(rawValue: "MIGRATION")

    /// `PRICE_CHANGE`.
    public static let priceChange = NotificationType(rawValue: "PRICE_CHANGE")
}
