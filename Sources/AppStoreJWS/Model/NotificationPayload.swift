public import struct Foundation.Date

/// A signed App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`), the content of the
/// `{"signedPayload": …}` body Apple posts to your server.
///
/// Exactly one of ``data``, ``summary``, ``externalPurchaseToken`` and ``appData`` is present, depending on
/// ``notificationType``. ``data`` carries the transaction and renewal info as nested JWS
/// (``NotificationData/signedTransactionInfo``), which ``JWSVerifier/verifyNotification(_:now:)`` verifies too.
public struct NotificationPayload: AppStoreSignedPayload {
    public let fields: [String: JSONValue]
    public static let kind = "notification"
    public static let namesBundleIdentifier = true
    public static let namesAppAppleID = true

    /// The notification's app data, when present.
    public let data: NotificationData?
    /// The summary of a renewal-date extension request, when present.
    public let summary: NotificationSummary?
    /// The external purchase token, when present.
    public let externalPurchaseToken: ExternalPurchaseToken?
    /// The app data of notifications about the app itself, when present.
    public let appData: NotificationAppData?

    static let schema: [String: PayloadField] = [
        "appData": .object, "data": .object, "externalPurchaseToken": .object, "notificationType": .string,
        "notificationUUID": .string, "signedDate": .timestamp, "subtype": .string, "summary": .object,
        "version": .string,
    ]

    public init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: Self.kind)
        self.fields = fields
        self.data = try fields["data"]?.objectValue.map(NotificationData.init(fields:))
        self.summary = try fields["summary"]?.objectValue.map(NotificationSummary.init(fields:))
        self.externalPurchaseToken = try fields["externalPurchaseToken"]?.objectValue.map(ExternalPurchaseToken.init(fields:))
        self.appData = try fields["appData"]?.objectValue.map(NotificationAppData.init(fields:))
    }

    /// `notificationType`, e.g. `SUBSCRIBED`, `DID_RENEW`, `REFUND`.
    public var notificationType: NotificationType? { self.fields.enumeration("notificationType") }
    /// `subtype`, e.g. `INITIAL_BUY`, `AUTO_RENEW_DISABLED`.
    public var subtype: NotificationSubtype? { self.fields.enumeration("subtype") }
    /// `notificationUUID`: the notification's identity; Apple retries with the same one.
    public var notificationUUID: String? { self.fields.string("notificationUUID") }
    /// `version`: `2.0`.
    public var version: String? { self.fields.string("version") }
    /// `signedDate`.
    public var signedDate: AppStoreTimestamp? { self.fields.timestamp("signedDate") }

    public var signingTime: Date? { self.signedDate?.date }

    /// From `data`, `summary`, `externalPurchaseToken` or `appData`, whichever is present.
    public var bundleIdentifier: String? {
        self.data?.bundleIdentifier ?? self.summary?.bundleIdentifier ?? self.externalPurchaseToken?.bundleIdentifier
            ?? self.appData?.bundleIdentifier
    }

    /// From `data`, `summary`, `externalPurchaseToken` or `appData`, whichever is present.
    public var appAppleID: Int64? {
        self.data?.appAppleID ?? self.summary?.appAppleID ?? self.externalPurchaseToken?.appAppleID
            ?? self.appData?.appAppleID
    }

    /// From `data`, `summary` or `appData`; for an external purchase token, `Sandbox` when its id starts with
    /// `SANDBOX` and `Production` otherwise (the token carries no environment field).
    public var environment: AppStoreEnvironment? {
        if let environment = self.data?.environment ?? self.summary?.environment ?? self.appData?.environment {
            return environment
        }
        guard let identifier = self.externalPurchaseToken?.externalPurchaseID else { return nil }
        return identifier.hasPrefix("SANDBOX") ? .sandbox : .production
    }
}
