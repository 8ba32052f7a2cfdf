/// The `summary` object of a `RENEWAL_EXTENSION` notification: how a mass renewal-date extension went.
public struct NotificationSummary: Sendable, Hashable {
    /// Every field as signed.
    public let fields: [String: JSONValue]

    static let schema: [String: PayloadField] = [
        "appAppleId": .integer, "bundleId": .string, "environment": .string, "failedCount": .integer,
        "productId": .string, "requestIdentifier": .string, "storefrontCountryCodes": .stringArray,
        "succeededCount": .integer,
    ]

    init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: "notification.summary")
        self.fields = fields
    }

    /// `appAppleId`.
    public var appAppleID: Int64? { self.fields.integer("appAppleId") }
    /// `bundleId`.
    public var bundleIdentifier: String? { self.fields.string("bundleId") }
    /// `environment`.
    public var environment: AppStoreEnvironment? { self.fields.environment("environment") }
    /// `productId`.
    public var productID: String? { self.fields.string("productId") }
    /// `requestIdentifier`.
    public var requestIdentifier: String? { self.fields.string("requestIdentifier") }
    /// `storefrontCountryCodes`.
    public var storefrontCountryCodes: [String]? { self.fields.strings("storefrontCountryCodes") }
    /// `succeededCount`.
    public var succeededCount: Int64? { self.fields.integer("succeededCount") }
    /// `failedCount`.
    public var failedCount: Int64? { self.fields.integer("failedCount") }
}
