public import AppStorePKI

/// What a ``ReceiptValidator`` requires of a receipt.
///
/// Everything that varies between apps and calls is here, as an input: anchors, the expected app identity, the
/// device, and the instant at which the chain is validated. Nothing is read from the environment.
///
/// ```swift
/// let policy = ReceiptValidationPolicy(
///     bundleIdentifier: "com.example.app",
///     appVersion: "42",
///     device: DeviceIdentifier(uuid: vendorID))
/// ```
public struct ReceiptValidationPolicy: Sendable {
    /// The trusted anchors; Apple's pinned root by default.
    public var anchors: AppStoreTrustAnchors
    /// Whether receipts signed by Xcode's StoreKit test certificate are accepted. Never do this in production:
    /// the key of that certificate ships with Xcode. Default `false`.
    public var allowsXcodeReceipts: Bool
    /// The bundle identifier the receipt must carry, or `nil` to skip the check.
    public var bundleIdentifier: String?
    /// The app version the receipt must carry (`CFBundleVersion` on iOS, `CFBundleShortVersionString` on macOS),
    /// or `nil` to skip the check.
    public var appVersion: String?
    /// The device whose hash the receipt must carry, or `nil` to skip the check.
    public var device: DeviceIdentifier?
    /// When the certificate chain is validated; the receipt's creation date by default (`.receiptCreationDate`).
    public var trustEvaluationTime: TrustEvaluationTime

    /// Creates a policy; by default it checks signature and chain to Apple's root only.
    public init(
        anchors: AppStoreTrustAnchors = .apple,
        allowsXcodeReceipts: Bool = false,
        bundleIdentifier: String? = nil,
        appVersion: String? = nil,
        device: DeviceIdentifier? = nil,
        trustEvaluationTime: TrustEvaluationTime = .receiptCreationDate
    ) {
        self.anchors = anchors
        self.allowsXcodeReceipts = allowsXcodeReceipts
        self.bundleIdentifier = bundleIdentifier
        self.appVersion = appVersion
        self.device = device
        self.trustEvaluationTime = trustEvaluationTime
    }
}
