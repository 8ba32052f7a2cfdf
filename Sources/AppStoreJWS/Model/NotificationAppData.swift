/// The `appData` object of notifications about the app rather than a purchase.
public struct NotificationAppData: Sendable, Hashable {
    /// Every field as signed.
    public let fields: [String: JSONValue]

    static let schema: [String: PayloadField] = [
        "appAppleId": .integer, "bundleId": .string, "environment": .string, "signedAppTransactionInfo": .string,
    ]

    init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: "notification.appData")
        self.fields = fields
    }

    /// `appAppleId`.
    public var appAppleID: Int64? { self.fields.integer("appAppleId") }
    /// `bundleId`.
    public var bundleIdentifier: String? { self.fields.string("bundleId") }
    /// `environment`.
    public var environment: AppStoreEnvironment? { self.fields.environment("environment") }
    /// `signedAppTransactionInfo`: a JWS of an ``AppTransactionPayload``.
    public var signedAppTransactionInfo: String? { self.fields.string("signedAppTransactionInfo") }
}
