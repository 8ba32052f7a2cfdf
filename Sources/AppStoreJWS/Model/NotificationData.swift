/// The `data` object of a server notification: the app, the environment and the signed transaction and renewal
/// info the notification is about.
public struct NotificationData: Sendable, Hashable {
    /// Every field as signed.
    public let fields: [String: JSONValue]

    static let schema: [String: PayloadField] = [
        "appAppleId": .integer, "bundleId": .string, "bundleVersion": .string, "consumptionRequestReason": .string,
        "environment": .string, "signedRenewalInfo": .string, "signedTransactionInfo": .string, "status": .integer,
    ]

    init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: "notification.data")
        self.fields = fields
    }

    /// `appAppleId`.
    public var appAppleID: Int64? { self.fields.integer("appAppleId") }
    /// `bundleId`.
    public var bundleIdentifier: String? { self.fields.string("bundleId") }
    /// `bundleVersion`.
    public var bundleVersion: String? { self.fields.string("bundleVersion") }
    /// `environment`.
    public var environment: AppStoreEnvironment? { self.fields.environment("environment") }
    /// `signedTransactionInfo`: a JWS of a ``JWSTransactionPayload``.
    public var signedTransactionInfo: String? { self.fields.string("signedTransactionInfo") }
    /// `signedRenewalInfo`: a JWS of a ``JWSRenewalInfoPayload``.
    public var signedRenewalInfo: String? { self.fields.string("signedRenewalInfo") }
    /// `status`: the subscription's status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var status: Int64? { self.fields.integer("status") }
    /// `consumptionRequestReason`.
    public var consumptionRequestReason: String? { self.fields.string("consumptionRequestReason") }
}
