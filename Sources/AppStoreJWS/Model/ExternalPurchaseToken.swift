/// The `externalPurchaseToken` object of an `EXTERNAL_PURCHASE_TOKEN` notification.
public struct ExternalPurchaseToken: Sendable, Hashable {
    /// Every field as signed.
    public let fields: [String: JSONValue]

    static let schema: [String: PayloadField] = [
        "appAppleId": .integer, "bundleId": .string, "externalPurchaseId": .string, "tokenCreationDate": .timestamp,
    ]

    init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: "notification.externalPurchaseToken")
        self.fields = fields
    }

    /// `externalPurchaseId`; sandbox tokens start with `SANDBOX`.
    public var externalPurchaseID: String? { self.fields.string("externalPurchaseId") }
    /// `tokenCreationDate`.
    public var tokenCreationDate: AppStoreTimestamp? { self.fields.timestamp("tokenCreationDate") }
    /// `appAppleId`.
    public var appAppleID: Int64? { self.fields.integer("appAppleId") }
    /// `bundleId`.
    public var bundleIdentifier: String? { self.fields.string("bundleId") }
}
