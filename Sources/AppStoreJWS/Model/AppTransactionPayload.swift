public import struct Foundation.Date

/// A signed `AppTransaction`: proof that the app was bought or downloaded from the App Store (StoreKit 2's
/// replacement for the app receipt).
public struct AppTransactionPayload: AppStoreSignedPayload {
    public let fields: [String: JSONValue]
    public static let kind = "app_transaction"
    public static let namesBundleIdentifier = true
    public static let namesAppAppleID = true

    static let schema: [String: PayloadField] = [
        "appAppleId": .integer, "appTransactionId": .string, "applicationVersion": .string, "bundleId": .string,
        "deviceVerification": .string, "deviceVerificationNonce": .string, "originalApplicationVersion": .string,
        "originalPlatform": .string, "originalPurchaseDate": .timestamp, "preorderDate": .timestamp,
        "receiptCreationDate": .timestamp, "receiptType": .string, "requestDate": .timestamp,
        "signedDate": .timestamp, "versionExternalIdentifier": .integer,
    ]

    public init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: Self.kind)
        self.fields = fields
    }

    /// `appAppleId`.
    public var appAppleID: Int64? { self.fields.integer("appAppleId") }
    /// `bundleId`.
    public var bundleIdentifier: String? { self.fields.string("bundleId") }
    /// `applicationVersion`.
    public var applicationVersion: String? { self.fields.string("applicationVersion") }
    /// `versionExternalIdentifier`.
    public var versionExternalIdentifier: Int64? { self.fields.integer("versionExternalIdentifier") }
    /// `originalApplicationVersion`: the version first bought or downloaded.
    public var originalApplicationVersion: String? { self.fields.string("originalApplicationVersion") }
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: AppStoreTimestamp? { self.fields.timestamp("originalPurchaseDate") }
    /// `originalPlatform`: `iOS`, `macOS`, `tvOS`, `visionOS`.
    public var originalPlatform: String? { self.fields.string("originalPlatform") }
    /// `preorderDate`.
    public var preorderDate: AppStoreTimestamp? { self.fields.timestamp("preorderDate") }
    /// `receiptCreationDate`.
    public var receiptCreationDate: AppStoreTimestamp? { self.fields.timestamp("receiptCreationDate") }
    /// `requestDate`.
    public var requestDate: AppStoreTimestamp? { self.fields.timestamp("requestDate") }
    /// `signedDate`.
    public var signedDate: AppStoreTimestamp? { self.fields.timestamp("signedDate") }
    /// `deviceVerification`: base64 SHA-384 of the nonce and the device's identifier.
    public var deviceVerification: String? { self.fields.string("deviceVerification") }
    /// `deviceVerificationNonce`.
    public var deviceVerificationNonce: String? { self.fields.string("deviceVerificationNonce") }
    /// `appTransactionId`.
    public var appTransactionID: String? { self.fields.string("appTransactionId") }
    /// `receiptType`: the environment (`Production`, `Sandbox`, `Xcode`).
    public var environment: AppStoreEnvironment? { self.fields.environment("receiptType") }

    /// `signedDate`, or `receiptCreationDate` for payloads that have none (as Apple's libraries do).
    public var signingTime: Date? { (self.signedDate ?? self.receiptCreationDate)?.date }
}
