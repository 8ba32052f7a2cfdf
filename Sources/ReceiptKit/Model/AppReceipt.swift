public import struct Foundation.Date

/// The decoded payload of an App Store receipt.
///
/// `AppReceipt` is a plain value: decoding it checks structure only, never signatures or trust. Use
/// ``ReceiptValidator`` to decide whether a receipt can be believed.
///
/// ```swift
/// let receipt = try AppReceipt(berEncoded: bytes)
/// print(receipt.bundleIdentifier ?? "-", receipt.inAppPurchases.count)
/// ```
public struct AppReceipt: Sendable, Hashable {
    /// Attribute 0: the environment the receipt was issued in.
    public var environment: ReceiptEnvironment?
    /// Attribute 1: the App Store item identifier of the app (`adam_id` / `app_item_id`; 0 in the sandbox).
    public var appItemIdentifier: Int64?
    /// Attribute 2: the bundle identifier, decoded from its UTF8String.
    public var bundleIdentifier: String?
    /// Attribute 2: the raw content octets of the bundle identifier attribute (the DER UTF8String, tag and length
    /// included). The device hash is computed over these bytes, not over ``bundleIdentifier``.
    public var bundleIdentifierData: [UInt8]?
    /// Attribute 3: the app version (`CFBundleVersion` on iOS, `CFBundleShortVersionString` on macOS).
    public var appVersion: String?
    /// Attribute 4: an opaque value used, with the device identifier and bundle identifier, for the device hash.
    public var opaqueValue: [UInt8]?
    /// Attribute 5: the SHA-1 hash of device identifier, opaque value and bundle identifier bytes.
    public var sha1Hash: [UInt8]?
    /// Attribute 10: the age rating of the app (for example `4+`).
    public var ageRating: String?
    /// Attribute 12: when the App Store created the receipt.
    public var creationDate: Date?
    /// Attribute 15: the download identifier.
    public var downloadIdentifier: Int64?
    /// Attribute 16: the identifier of the app version (`version_external_identifier`).
    public var versionExternalIdentifier: Int64?
    /// Attribute 18: when the user first purchased or downloaded the app.
    public var originalPurchaseDate: Date?
    /// Attribute 19: the app version the user originally purchased.
    public var originalAppVersion: String?
    /// Attribute 21: when a Volume Purchase Program receipt expires.
    public var expirationDate: Date?
    /// Attribute 17 (repeated): the in-app purchase records, in receipt order.
    public var inAppPurchases: [InAppPurchase]
    /// Every app-level attribute that is not interpreted above, in receipt order (for example types 8, 9, 11, 13).
    public var otherAttributes: [ReceiptAttribute]

    /// Creates a receipt value; every field defaults to absent.
    public init(
        environment: ReceiptEnvironment? = nil,
        appItemIdentifier: Int64? = nil,
        bundleIdentifier: String? = nil,
        bundleIdentifierData: [UInt8]? = nil,
        appVersion: String? = nil,
        opaqueValue: [UInt8]? = nil,
        sha1Hash: [UInt8]? = nil,
        ageRating: String? = nil,
        creationDate: Date? = nil,
        downloadIdentifier: Int64? = nil,
        versionExternalIdentifier: Int64? = nil,
        originalPurchaseDate: Date? = nil,
        originalAppVersion: String? = nil,
        expirationDate: Date? = nil,
        inAppPurchases: [InAppPurchase] = [],
        otherAttributes: [ReceiptAttribute] = []
    ) {
        self.environment = environment
        self.appItemIdentifier = appItemIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.bundleIdentifierData = bundleIdentifierData
        self.appVersion = appVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.ageRating = ageRating
        self.creationDate = creationDate
        self.downloadIdentifier = downloadIdentifier
        self.versionExternalIdentifier = versionExternalIdentifier
        self.originalPurchaseDate = originalPurchaseDate
        self.originalAppVersion = originalAppVersion
        self.expirationDate = expirationDate
        self.inAppPurchases = inAppPurchases
        self.otherAttributes = otherAttributes
    }
}
